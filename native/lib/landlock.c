/*
 * Landlock, as the Java side needs to know it without confining itself: the ABI the running kernel
 * answers, and the rights each ABI knows, from hl_landlock.h (so from <linux/landlock.h>), so that the
 * Java constants are checked against the C ones (LandlockConstantsTest).
 */
#include <stdint.h>

#include "heimdall.h"
#include "hl_landlock.h"

int32_t hl_landlock_abi_now(void)
{
	return hl_landlock_abi();
}

int64_t hl_landlock_known(int32_t abi, int32_t which)
{
	switch (which) {
	case 0:
		return (int64_t)hl_landlock_fs_rights(abi);
	case 1:
		return (int64_t)hl_landlock_net_rights(abi);
	case 2:
		return (int64_t)hl_landlock_scopes(abi);
	case 3:
		return HL_LANDLOCK_ABI_KNOWN;
	default:
		return -1;
	}
}
