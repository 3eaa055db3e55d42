/* test_package.c: the installable package: libexpmech.so exports exactly the
 * functions the public headers declare, under SONAME libexpmech.so.MAJOR, and the man pages
 * cover every command and function.  The checks live in mk/check-package.sh (they read nm,
 * readelf and the program's --help); these cases run them, and also run them on libraries
 * built wrong on purpose, so that a checker that passes everything fails here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "em_check_main.h"

static const char *build_dir(void)
{
    const char *b = getenv("EM_PKG_BUILD");
    return b && *b ? b : "build";
}

static int run(const char *fmt, const char *arg)
{
    char cmd[8192];
    int len = snprintf(cmd, sizeof cmd, fmt, arg);
    ck_assert_msg(len > 0 && (size_t)len < sizeof cmd, "command truncated");
    int rc = system(cmd);
    return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

START_TEST(exports_exactly_the_public_api)
{
    ck_assert_int_eq(run("bash mk/check-package.sh exports %s", build_dir()), 0);
}
END_TEST

START_TEST(soname_has_the_major_version)
{
    ck_assert_int_eq(run("bash mk/check-package.sh soname %s", build_dir()), 0);
}
END_TEST

START_TEST(man1_lists_every_command)
{
    ck_assert_int_eq(run("bash mk/check-package.sh man1 %s", build_dir()), 0);
}
END_TEST

START_TEST(man3_lists_every_function)
{
    ck_assert_int_eq(run("bash mk/check-package.sh man3 %s", build_dir()), 0);
}
END_TEST

START_TEST(man_pages_render_without_warnings)
{
    ck_assert_int_eq(run("bash mk/check-package.sh render %s", build_dir()), 0);
}
END_TEST

START_TEST(building_needs_no_proof_toolchain)
{
    ck_assert_int_eq(run("bash mk/check-package.sh deps %s", build_dir()), 0);
}
END_TEST

/* A library with the real exports plus one internal symbol leaked, and one with a public
 * function missing, must both be rejected; so must a SONAME without the major version
 * (whose exports are right, so that the exports check is seen to pass it).  `if`, not `!`:
 * set -e ignores a failing `! command`. */
START_TEST(checker_rejects_wrong_libraries)
{
    const char *script =
        "set -e; t=$(mktemp -d); trap 'rm -rf $t' EXIT; lib=%s/libexpmech.so; "
        "nm -D --defined-only $lib | awk '$2 != \"A\" {sub(/@.*/, \"\", $3); "
        "  print \"void \" $3 \"(void) {}\"}' > $t/all.c; "
        "v=$(readlink $lib); so=${v%%.*.*}; "
        /* every case in version node EXPMECH_1, so each fails only for its own fault */
        "echo 'EXPMECH_1 { global: *; };' > $t/all.map; m=-Wl,--version-script=$t/all.map; "
        /* leaked: every public name plus em_internal_helper */
        "mkdir $t/leak; { cat $t/all.c; echo 'void em_internal_helper(void) {}'; } > $t/leak.c; "
        "gcc -shared -fPIC -w $m -Wl,-soname,$so -o $t/leak/$v $t/leak.c; "
        "ln -s $v $t/leak/libexpmech.so; ln -s $v $t/leak/$so; "
        "if bash mk/check-package.sh exports $t/leak >/dev/null; then echo leak passed; exit 1; fi; "
        /* missing: em_version dropped */
        "mkdir $t/miss; grep -v ' em_version(' $t/all.c > $t/miss.c; "
        "gcc -shared -fPIC -w $m -Wl,-soname,$so -o $t/miss/$v $t/miss.c; "
        "ln -s $v $t/miss/libexpmech.so; ln -s $v $t/miss/$so; "
        "if bash mk/check-package.sh exports $t/miss >/dev/null; then echo miss passed; exit 1; fi; "
        /* the same exports under an unversioned SONAME */
        "mkdir $t/son; gcc -shared -fPIC -w $m -Wl,-soname,libexpmech.so -o $t/son/$v $t/all.c; "
        "ln -s $v $t/son/libexpmech.so; ln -s $v $t/son/$so; "
        "bash mk/check-package.sh exports $t/son >/dev/null; "
        "if bash mk/check-package.sh soname $t/son >/dev/null; then echo son passed; exit 1; fi";
    ck_assert_int_eq(run(script, build_dir()), 0);
}
END_TEST

static Suite *package_suite(void)
{
    Suite *s = suite_create("package");
    TCase *tc = tcase_create("package");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, exports_exactly_the_public_api);
    tcase_add_test(tc, soname_has_the_major_version);
    tcase_add_test(tc, man1_lists_every_command);
    tcase_add_test(tc, man3_lists_every_function);
    tcase_add_test(tc, man_pages_render_without_warnings);
    tcase_add_test(tc, building_needs_no_proof_toolchain);
    tcase_add_test(tc, checker_rejects_wrong_libraries);
    suite_add_tcase(s, tc);
    return s;
}

EM_CHECK_MAIN(package_suite)
