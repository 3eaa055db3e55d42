/* em_check_main.h: the one main() of every Check program: run the suite, exit 0 only
 * when no test failed (mk/run-tests.sh and CI read the exit status). */
#ifndef EM_CHECK_MAIN_H
#define EM_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int em_check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#define EM_CHECK_MAIN(suite_fn) \
    int main(void) { return em_check_run(suite_fn()); }

#endif
