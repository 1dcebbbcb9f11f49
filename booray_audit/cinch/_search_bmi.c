/* The compiled search a second time, for CPUs with the BMI1, BMI2 and LZCNT instructions
 * (see the head of _search.c): the same source, linked into the same module, which hands
 * out this copy where the CPU has them.  Only GCC on x86-64 builds it. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define SEARCH_BMI 1
#include "_search.c"
#else
typedef int no_second_copy;  /* elsewhere this file is empty */
#endif
