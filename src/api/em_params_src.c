/* em_params_src.c: the sensitivity and variant with their provenance (em_params_src.h). */
#include "api/em_params_src.h"

int em_params_resolve(const em_params_in *in, mpq_t delta, em_params_out *out)
{
    out->refusal = EM_PARAMS_OK;
    out->forced = 0;
    if (in->opt_delta_given) {
        mpq_set(delta, in->opt_delta);
        out->delta_src = EM_SRC_OPTION;
        if (in->hdr_delta_given && mpq_cmp(in->opt_delta, in->hdr_delta) < 0)
            out->refusal |= EM_PARAMS_DELTA_BELOW_HEADER;
    } else if (in->hdr_delta_given) {
        mpq_set(delta, in->hdr_delta);
        out->delta_src = EM_SRC_HEADER;
    } else {
        mpq_set_ui(delta, 1, 1);
        out->delta_src = EM_SRC_DEFAULT;
    }
    if (in->opt_variant_given) {
        out->variant = in->opt_variant;
        out->variant_src = EM_SRC_OPTION;
        if (in->opt_variant == in->monotone_value && !in->hdr_monotone)
            out->refusal |= EM_PARAMS_MONOTONE_UNDECLARED;
    } else {
        out->variant = in->standard_value;
        out->variant_src = EM_SRC_DEFAULT;
    }
    if (out->refusal != EM_PARAMS_OK) {
        if (!in->force)
            return -1;
        out->forced = 1;
    }
    return 0;
}

const char *em_src_name(em_src s)
{
    return s == EM_SRC_OPTION ? "option" : s == EM_SRC_HEADER ? "header" : "default";
}
