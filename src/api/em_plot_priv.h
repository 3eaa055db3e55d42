/* em_plot_priv.h: the two halves of em_plot_write (em_plot.h), the script (em_plot.c) and
 * the figure drawn from it (em_plot_svg.c).  Never installed. */
#ifndef EM_PLOT_PRIV_H
#define EM_PLOT_PRIV_H

#include <stdio.h>

#include "em_plot.h"

/* em_plot_write's script written to f, o->output not read. */
int em_plot_script(FILE *f, const em_plot_opts *o, em_error *err);

#endif
