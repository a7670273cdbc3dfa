/* The native library's identity, checked by the Java side when it loads us. */
#include "heimdall.h"

int hl_abi_version(void)
{
	return HL_ABI_VERSION;
}
