#include "em_base.h"
#include "core/em_score_laplace.h"

int em_score_laplace(int64_t f, size_t m, const int64_t *grid, int64_t *u)
{
    if (u == NULL || grid == NULL)
        return EM_ERR_NULL;
    if (m == 0)
        return EM_ERR_EMPTY;
    if (f < -EM_SCORE_ABS_MAX || f > EM_SCORE_ABS_MAX)
        return EM_ERR_OVERFLOW;
    /*@ loop invariant range: 0 <= j <= m;
        loop invariant in_range: \forall integer t; 0 <= t < j ==> \abs(grid[t]) <= EM_SCORE_ABS_MAX;
        loop assigns j;
        loop variant m - j; */
    for (size_t j = 0; j < m; j++)
        if (grid[j] < -EM_SCORE_ABS_MAX || grid[j] > EM_SCORE_ABS_MAX)
            return EM_ERR_OVERFLOW;
    /*@ loop invariant range: 0 <= j <= m;
        loop invariant checked: \forall integer t; 0 <= t < m ==> \abs(grid[t]) <= EM_SCORE_ABS_MAX;
        loop invariant score: \forall integer t; 0 <= t < j ==> u[t] == LaplaceScore(f, grid[t]);
        loop assigns j, u[0 .. m - 1];
        loop variant m - j; */
    for (size_t j = 0; j < m; j++)
        u[j] = f >= grid[j] ? grid[j] - f : f - grid[j];
    return EM_OK;
}
