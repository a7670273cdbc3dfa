/* The native library's identity, checked by the Java side when it loads us. */
int hl_abi_version(void) { return 4; }
