/* Memory for the large tables a search reads all over: the graph's nodes and the word
 * map (CSW24: 4.8 MB and 10.4 MB).
 *
 * A search on a position never seen before touches these tables at scattered places,
 * and with 4 KiB pages the CPU's second-level translation cache (a few thousand entries:
 * 8-12 MB of such pages, shared with all else the process touches) cannot hold them:
 * many reads then pay a page-table walk on top of the cache miss.  On Linux
 * these blocks are aligned to 2 MiB and marked MADV_HUGEPAGE, so that the kernel backs
 * them with 2 MiB pages when transparent huge pages are enabled ("always" or
 * "madvise", the usual default): the same tables then need a handful of entries.  Where
 * that is not available (another system, THP "never", no huge page free) the same
 * memory comes as ordinary pages: only the speed differs, never a result.
 *
 * Only the whole 2 MiB pages inside a block are marked, so a block holds no more memory
 * than it asks for.  Allocation happens when a table is loaded or built, never in a
 * search. */
#ifndef WS_MEM_H
#define WS_MEM_H

#include <stddef.h>

/* n bytes (n >= 1), zeroed; NULL when out of memory.  Release with free(). */
void *ws_mem_large(size_t n);

/* Whether the 2 MiB page hint is compiled in (Linux); the kernel may still decline it. */
int ws_mem_large_pages(void);

#endif
