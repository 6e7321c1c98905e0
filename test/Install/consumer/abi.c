/* The installed runtime ABI headers compile as C. */
#include "TC/Runtime/Runtime.h"

int64_t consumer_abi_version(void);
int64_t consumer_abi_version(void) { return TC_RT_API_VERSION; }
