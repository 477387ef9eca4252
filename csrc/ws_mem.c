/* 2 MiB-aligned blocks with the huge page hint; see ws_mem.h. */
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE under -std=c99 */
#include "ws_mem.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

#if defined(__linux__) && defined(MADV_HUGEPAGE)
void *ws_mem_large(size_t n) {
    void *p = NULL;
    if (n < HUGE_PAGE) return calloc(n ? n : 1, 1); /* no whole huge page in it */
    if (posix_memalign(&p, HUGE_PAGE, n) != 0) return NULL;
    /* a hint, before the first touch so the first faults already take huge pages; a
     * refusal (EINVAL where THP is compiled out) leaves ordinary pages */
    (void)madvise(p, n & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
    memset(p, 0, n);
    return p;
}

int ws_mem_large_pages(void) { return 1; }
#else
void *ws_mem_large(size_t n) { return calloc(n ? n : 1, 1); }

int ws_mem_large_pages(void) { return 0; }
#endif
