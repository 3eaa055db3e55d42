#include "em_base.h"
#include "core/em_score_rr.h"

int em_score_rr(int x, int64_t beta, int64_t gamma, int64_t *u)
{
    if (u == NULL)
        return EM_ERR_NULL;
    if (x != 0 && x != 1)
        return EM_ERR_DOMAIN;
    u[0] = 0;
    u[1] = x == 0 ? beta : gamma;
    return EM_OK;
}
