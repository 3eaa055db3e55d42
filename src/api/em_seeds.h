/* em_seeds: the seed scenarios' data sets (the marital status and occupations of the Adult
   data set), in one place.
   Used by `expmech example`, `expmech demo`, the statistical tests and the
   unit tests, so that every scenario is typed exactly once. */
#ifndef EM_ORACLE_SEEDS_H
#define EM_ORACLE_SEEDS_H

/* Seed 000: marital status of the Adult data set. */
#define EM_MARITAL_N 7
extern const char *const em_marital_labels[EM_MARITAL_N];
extern const long em_marital_counts[EM_MARITAL_N];

/* Seed 004: occupations of the Adult data set (plus the seed's "Baby"). */
#define EM_OCCUPATION_N 15
extern const char *const em_occupation_labels[EM_OCCUPATION_N];
extern const long em_occupation_counts[EM_OCCUPATION_N];

#endif
