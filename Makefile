# expmech: the two commands a user needs are `make demo` and `make check`.
# Each installs the missing Debian packages it needs first (mk/deps.sh): building needs only
# the compiler and the linked libraries; make check and make verify add the proof toolchain.

SHELL := /bin/bash
CC      ?= gcc
CSTD    := -std=c11 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) -Isrc/include -Isrc -I.
LDLIBS  := -lmpfr -lgmp -lgsl -lgslcblas -lsodium -ljansson -lm
B       := build

CORE_SRC   := $(wildcard src/core/*.c)
LIB_SRC    := $(CORE_SRC) $(wildcard src/trusted/*.c src/base/*.c src/num/*.c src/io/*.c src/oracle/*.c \
                src/judge/*.c src/api/*.c)
CLI_SRC    := $(filter-out src/cli/expmech.c,$(wildcard src/cli/*.c))
TEST_SRC   := $(wildcard tests/test_*.c)
STATS_SRC  := $(wildcard stats/stat_*.c)
BENCH_SRC  := $(wildcard stats/bench_*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(B)/tests/%)
STATS    := $(STATS_SRC:stats/%.c=$(B)/stats/%)
BENCHES  := $(BENCH_SRC:stats/%.c=$(B)/stats/%)
HEADERS  := $(wildcard src/include/*.h src/*/*.h spec/*.acsl tests/*.h stats/*.h)

.PHONY: all deps demo check lint unit python sanitize valgrind verify prove prove-cold prove-scratch proof-floor gate-test proof-timing stats stats-full bench clean help \
        bench-all bench-doc \
        install uninstall install-check figures
.DEFAULT_GOAL := all

help:
	@echo "make demo    build and run the marital-status example (installs deps)"
	@echo "make check   unit tests, proof gate (make verify), quick statistical tests"
	@echo "make verify  replay every WP goal and Why3 theorem; fail on any unproved goal"
	@echo "make prove   re-run the provers and update the committed WP and Why3 caches"
	@echo "make prove-cold     empty both caches, prove every goal again (scripts choose the prover)"
	@echo "make prove-scratch  the same with the proof scripts emptied too (provers race)"
	@echo "make proof-floor    time WP's goal generation alone (Qed only): the least a replay costs"
	@echo "make gate-test  plant defects in copies and check that make verify fails on each"
	@echo "make bench   expmech beside numpy, diffprivlib's algorithm and the machine's limits:"
	@echo "             a table and build/bench.json (timings live here, never in tests)"
	@echo "make bench-all   the same, then the older benchmark programs and the memory run"
	@echo "make bench-doc      docs/speed.md from build/bench.json"
	@echo "make figures docs/figures.md's figures: data by expmech, SVGs by expmech plot (gnuplot)"
	@echo "make install PREFIX=/usr/local DESTDIR=   library, headers, expmech.pc, CLI, man pages"
	@echo "make install-check   install to a temporary prefix, build and run examples/ against it"

# ---------------------------------------------------------------- packages
deps:
	@bash mk/deps.sh check

# ------------------------------------------------------------------ build
# The version lives once, in the public header; the shared library's names follow it.
VERSION_PART = $(shell sed -nE 's/^\#define EM_VERSION_$(1) ([0-9]+)$$/\1/p' src/include/expmech.h)
SO_MAJOR := $(call VERSION_PART,MAJOR)
SO_MINOR := $(call VERSION_PART,MINOR)
SO_PATCH := $(call VERSION_PART,PATCH)
VERSION  := $(SO_MAJOR).$(SO_MINOR).$(SO_PATCH)
ifneq ($(words $(SO_MAJOR) $(SO_MINOR) $(SO_PATCH)),3)
$(error cannot read EM_VERSION_MAJOR/MINOR/PATCH from src/include/expmech.h)
endif
SONAME   := libexpmech.so.$(SO_MAJOR)
SO_REAL  := libexpmech.so.$(VERSION)

all: $(B)/expmech $(B)/libexpmech.a $(B)/libexpmech.so $(B)/$(SONAME)


$(B)/%.o: %.c $(HEADERS) | deps-built
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The proven core's block loops are written branch-free for the vectoriser
# (issue 15), but GCC's default cost model at -O2 ("very cheap") vectorises only
# loops whose trip count is a known multiple of the vector width, and blocks of a
# run-time length are not.  The dynamic model changes which instructions carry
# the same IEEE operations, never the operations (no -ffast-math, no FMA), so the
# proofs' float model is the one compiled.  Compilers that lack the option skip it.
CORE_VEC := $(shell $(CC) -fvect-cost-model=dynamic -E -x c /dev/null >/dev/null 2>&1 && echo -fvect-cost-model=dynamic)
$(B)/src/core/%.o: ALL_CFLAGS += $(CORE_VEC)
# A core function that is exported and called in its own unit (em_select_cumulative in the
# batch draw) is inlined there also in the shared library: calls within the library bind
# to its own definitions, whatever a program linked against it defines.
$(B)/src/core/%.o: ALL_CFLAGS += -fno-semantic-interposition
# The matrix products of the exact Kolmogorov-Smirnov p-value (src/judge/em_ks.c), likewise.
$(B)/src/judge/em_ks.o: ALL_CFLAGS += $(CORE_VEC)

$(B)/libexpmech.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# ------------------------------------------------------------- shared library
# One set of objects serves the static and the shared library: compiled once, -fPIC (which
# costs an executable linked against libexpmech.a nothing measurable here: internal calls
# and data of hidden symbols stay direct).  The exported set is exactly the version script
# mk/libexpmech.map (checked against the public headers by tests/test_package).  Every
# object is built -fvisibility=hidden except those that define a public function: their
# declarations are in src/core/ and em_base.h, which the proofs read and which therefore
# cannot carry a visibility attribute, and the linker cannot export a hidden symbol.
API_DEF_SRC := $(CORE_SRC) src/trusted/em_rng.c src/api/em_version.c
PIC_OBJ     := $(LIB_OBJ)
PIC_DEFAULT := $(API_DEF_SRC:%.c=$(B)/%.o)

$(LIB_OBJ): $(B)/%.o: %.c $(HEADERS) | deps-built
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC $(if $(filter $@,$(PIC_DEFAULT)),,-fvisibility=hidden) -c $< -o $@

$(B)/$(SO_REAL): $(PIC_OBJ) mk/libexpmech.map
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=mk/libexpmech.map \
	  -Wl,--no-undefined -o $@ $(PIC_OBJ) $(LDLIBS)

$(B)/$(SONAME) $(B)/libexpmech.so: $(B)/$(SO_REAL)
	ln -sf $(SO_REAL) $@

# The program's --help texts: the help blocks of man/expmech.1 (one source), a build product
$(B)/gen/cli_help.h: man/expmech.1 mk/gen-help.sh
	@mkdir -p $(dir $@)
	sh mk/gen-help.sh $< $@
$(CLI_OBJ) $(B)/src/cli/expmech.o $(B)/mk/expmech-entry.o: $(B)/gen/cli_help.h
$(CLI_OBJ) $(B)/src/cli/expmech.o $(B)/mk/expmech-entry.o: ALL_CFLAGS += -I$(B)/gen

# PROG_EXTRA: objects only the program links (make sanitize's coverage recorder, mk/em-cov.c)
$(B)/expmech: $(B)/src/cli/expmech.o $(CLI_OBJ) $(B)/libexpmech.a $(PROG_EXTRA)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# make valgrind's server (mk/vg-serve.c): the program's main, renamed, called in forks
$(B)/mk/expmech-entry.o: src/cli/expmech.c $(HEADERS) | deps-built
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Dmain=em_cli_entry -c $< -o $@
$(B)/vg-serve: mk/vg-serve.c $(B)/mk/expmech-entry.o $(CLI_OBJ) $(B)/libexpmech.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The test programs at -O1: their time is the library's (built -O2), and -O1 compiles them in
# 60% of -O2's time (make check builds 56 of them)
TEST_OPT ?= -O1
$(B)/tests/%: tests/%.c $(CLI_OBJ) $(B)/libexpmech.a $(HEADERS) | $(B)/.deps-check
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_OPT) -Itests -o $@ $< $(CLI_OBJ) $(B)/libexpmech.a -lcheck -lsubunit -lrt -lpthread $(LDLIBS)

$(B)/stats/%: stats/%.c $(B)/libexpmech.a $(HEADERS) | $(B)/.deps-check
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Istats -o $@ $< $(B)/libexpmech.a $(LDLIBS)

# bench_speed (issue 15's side-by-side figures) links the physical-limit loops, each built
# with its own fixed flags whatever CFLAGS says (stats/bench_limit.h): the scalar pass
# unvectorised, the vector passes through glibc's libmvec (-ffast-math in those objects
# only), once per instruction set (bench_speed calls one only where the CPU has it).
LIMIT_OBJ := $(addprefix $(B)/stats/,limit_scalar.o limit_sse2.o limit_avx2.o limit_avx512.o)
LIMIT_CFLAGS = $(CSTD) $(WARN) -g -Istats
LIMIT_VEC := -O3 -fopenmp-simd -ffast-math

$(B)/stats/limit_scalar.o: stats/limit_scalar.c stats/bench_limit.h
	@mkdir -p $(dir $@)
	$(CC) $(LIMIT_CFLAGS) -O2 -fno-tree-vectorize -c $< -o $@

$(B)/stats/limit_sse2.o: stats/limit_vector.c stats/bench_limit.h
	@mkdir -p $(dir $@)
	$(CC) $(LIMIT_CFLAGS) $(LIMIT_VEC) -c $< -o $@

$(B)/stats/limit_avx2.o: stats/limit_vector.c stats/bench_limit.h
	@mkdir -p $(dir $@)
	$(CC) $(LIMIT_CFLAGS) $(LIMIT_VEC) -mavx2 -mfma -DEM_LIMIT_EXP=em_limit_exp_avx2 -c $< -o $@

$(B)/stats/limit_avx512.o: stats/limit_vector.c stats/bench_limit.h
	@mkdir -p $(dir $@)
	$(CC) $(LIMIT_CFLAGS) $(LIMIT_VEC) -mavx512f -mprefer-vector-width=512 \
	  -DEM_LIMIT_EXP=em_limit_exp_avx512 -c $< -o $@

$(B)/stats/bench_speed: stats/bench_speed.c $(LIMIT_OBJ) $(B)/libexpmech.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Istats -o $@ $< $(LIMIT_OBJ) $(B)/libexpmech.a -lmvec $(LDLIBS)

# The tables of src/oracle/em_wbound_tab.c (directed roundings by MPFR), regenerated on
# demand only: the generated file is committed and tests/test_exact_d.c rechecks it.
$(B)/tools/gen_wbound: tools/gen_wbound.c src/oracle/em_wbound.h | deps-built
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)

# The conformance battery (conformance/cases/, one JSON file a case) is generated from the
# definitions in tools/gen_conformance.c by the oracle and committed; make check regenerates
# it and fails on any byte of difference (conformance-cases-check).
$(B)/tools/gen_conformance: tools/gen_conformance.c $(B)/libexpmech.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libexpmech.a $(LDLIBS)

# The C reference sampler of the conformance suite (the public API only).
$(B)/conformance/c_sampler: conformance/samplers/c_sampler.c $(B)/libexpmech.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libexpmech.a $(LDLIBS)

# make conformance-cases: rewrite the battery; conformance-cases-check (make check): fail on
# any byte of difference between the committed files and a fresh generation.
.PHONY: conformance-cases conformance-cases-check conformance conformance-quick
conformance-cases: $(B)/tools/gen_conformance
	@rm -f conformance/cases/*.json
	@$(B)/tools/gen_conformance conformance/cases

# Every sampler of conformance/samplers/ judged (mk/conformance.py): the correct ones pass
# every case, each planted one is rejected and diagnosed as its own mistake.
CONFORM_DEPS := $(B)/expmech $(B)/libexpmech.so $(B)/$(SONAME) $(B)/conformance/c_sampler
conformance: $(CONFORM_DEPS)
	@EXPMECH_LIB=$(CURDIR)/$(B)/$(SONAME) PYTHONPATH=python $(PYTHON) mk/conformance.py --build $(B)

conformance-quick: $(CONFORM_DEPS)
	@$(STAGE) conformance-quick env EXPMECH_LIB=$(CURDIR)/$(B)/$(SONAME) PYTHONPATH=python $(PYTHON) mk/conformance.py --quick --build $(B)

conformance-cases-check: $(B)/tools/gen_conformance
	@$(STAGE) conformance-cases-check bash -c 'rm -rf $(B)/conformance-cases && mkdir -p $(B)/conformance-cases \
	  && $(B)/tools/gen_conformance $(B)/conformance-cases && { diff -r -q conformance/cases $(B)/conformance-cases \
	  && echo "conformance-cases-check: the battery regenerates byte for byte" \
	  || { echo "conformance-cases-check: conformance/cases differs from the oracle'"'"'s (make conformance-cases)"; exit 1; }; }'

.PHONY: wbound-tables
wbound-tables: $(B)/tools/gen_wbound
	$(B)/tools/gen_wbound > src/oracle/em_wbound_tab.c

# Packages are checked once per build directory, not on every object: .deps-ok for building,
# .deps-check for what make check runs (the proof toolchain among it), .deps-proofs for the
# proof toolchain alone (make verify).
.PHONY: deps-built
deps-built: $(B)/.deps-ok
$(B)/.deps-ok: mk/deps.sh
	@bash mk/deps.sh build
	@mkdir -p $(B) && touch $@
$(B)/.deps-check: mk/deps.sh
	@bash mk/deps.sh check
	@mkdir -p $(B) && touch $@
$(B)/.deps-proofs: mk/deps.sh
	@bash mk/deps.sh proofs
	@mkdir -p $(B) && touch $@

# ---------------------------------------------------------------- install
# Headers go to $(PREFIX)/include/expmech/ with the layout expmech.h expects (em_base.h
# beside it, core/*.h and the spec/*.acsl logic their contracts use), found by the
# compiler rather than listed, so a new core header is installed when expmech.h includes it.
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     := $(PREFIX)/bin
LIBDIR     := $(PREFIX)/lib
INCDIR     := $(PREFIX)/include/expmech
PCDIR      := $(LIBDIR)/pkgconfig
MANDIR     := $(PREFIX)/share/man
# The Python binding goes where Debian's python3 looks: /usr/lib/python3/dist-packages for
# PREFIX=/usr, else PREFIX/lib/python3.X/dist-packages (on sys.path for /usr/local).
PYTHON     := /usr/bin/python3
PY_XY       = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
PYDIR      ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_XY)/dist-packages)
PY_SRC     := $(wildcard python/expmech/*.py)
PUBLIC_HDR  = $(sort $(filter-out %:,$(subst \,,$(shell $(CC) $(CSTD) -Isrc/include -Isrc -I. -MM src/include/expmech.h))))
hdr_dest    = $(DESTDIR)$(INCDIR)/$(patsubst src/%,%,$(patsubst src/include/%,%,$(1)))

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR) \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(INCDIR)
	install -m 755 $(B)/expmech $(DESTDIR)$(BINDIR)/expmech
	install -m 644 $(B)/libexpmech.a $(DESTDIR)$(LIBDIR)/libexpmech.a
	install -m 755 $(B)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SO_REAL)
	ln -sf $(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libexpmech.so
	$(foreach h,$(PUBLIC_HDR),install -D -m 644 $(h) $(call hdr_dest,$(h)) &&) true
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' mk/expmech.pc.in \
	  > $(DESTDIR)$(PCDIR)/expmech.pc && chmod 644 $(DESTDIR)$(PCDIR)/expmech.pc
	install -m 644 man/expmech.1 $(DESTDIR)$(MANDIR)/man1/expmech.1
	install -m 644 man/expmech.3 $(DESTDIR)$(MANDIR)/man3/expmech.3
	install -d $(DESTDIR)$(PYDIR)/expmech
	install -m 644 $(PY_SRC) $(DESTDIR)$(PYDIR)/expmech/
	@# the installed module loads the library installed beside it, not another build
	printf '"""Written by make install."""\nLIBDIR = %s\n' "'$(LIBDIR)'" > $(DESTDIR)$(PYDIR)/expmech/_config.py
	@# The dynamic linker finds a new library in /usr/local/lib only through its cache.
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/expmech $(DESTDIR)$(LIBDIR)/libexpmech.a \
	  $(DESTDIR)$(LIBDIR)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libexpmech.so \
	  $(DESTDIR)$(PCDIR)/expmech.pc $(DESTDIR)$(MANDIR)/man1/expmech.1 $(DESTDIR)$(MANDIR)/man3/expmech.3
	rm -f $(foreach h,$(PUBLIC_HDR),$(call hdr_dest,$(h)))
	-rmdir $(DESTDIR)$(INCDIR)/core $(DESTDIR)$(INCDIR)/spec $(DESTDIR)$(INCDIR) 2>/dev/null
	rm -f $(patsubst python/expmech/%,$(DESTDIR)$(PYDIR)/expmech/%,$(PY_SRC)) $(DESTDIR)$(PYDIR)/expmech/_config.py
	rm -rf $(DESTDIR)$(PYDIR)/expmech/__pycache__
	-rmdir $(DESTDIR)$(PYDIR)/expmech 2>/dev/null

# Installs into temporary directories (one through PREFIX, one through DESTDIR), builds
# examples/ against the installed tree only, runs it, checks its numbers, then uninstalls
# and checks nothing is left: mk/install-check.sh.
install-check: all
	@$(STAGE) install-check env B=$(B) bash mk/install-check.sh

# ------------------------------------------------------------------- demo
demo: $(B)/expmech $(B)/libexpmech.so $(B)/$(SONAME)
	$(B)/expmech demo --draws 10
	@echo
	@echo "The same example through the exact oracle (MPFR, correctly rounded):"
	$(B)/expmech example marital | $(B)/expmech probs --epsilon 1
	@echo
	@echo "A continuous range (seed 003: a posted price on [0, 3.5], bids 1, 1, 1, 3.01):"
	@echo "piece probabilities, the CDF on a grid, and three exact draws."
	@printf '# output: continuous\n# sensitivity: 3.5\n0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n' > $(B)/pricing.txt
	$(B)/expmech probs --epsilon 1 $(B)/pricing.txt
	$(B)/expmech cdf --epsilon 1 --grid 0:3.5:8 $(B)/pricing.txt
	$(B)/expmech sample --epsilon 1 -n 3 --seed 7 $(B)/pricing.txt

# ------------------------------------------------------------------ tests
# make check: every stage, each timed (mk/stage.sh), and a table of where the time went.
# First everything the stages read is built, the sanitized build too (one make, parallel
# under -j2); then the stages run as independent targets, two at a time under make -j2
# (what .ci/run uses).  make -j2 starts them in the order listed whenever a slot frees,
# passing over a target whose prerequisite still runs until it reaches the end of the list,
# so the order is the schedule and a chain is one target: first the longest chain (the CLI
# tests under ASan choose valgrind's runs, valgrind runs them: check-chain, one make) beside
# the proof replay, then the gate, the other sanitized tests and the short stages.  SAN_PRE
# is emptied for the stages: the sanitized build is done, and made again it would stand in
# the table as a second, empty stage.  Stages after the build share no file they write, so
# -j2 is the same check as -j1.
# make check-full: the long stages make check leaves out (README.md, beside the two commands).
CHECK_STAGES := check-chain verify gate-test sanitize-lib unit fuzz-ci lint python install-check \
                stats conformance-cases-check conformance-quick
check-chain:
	+@$(MAKE) --no-print-directory valgrind
STAGE := bash mk/stage.sh
export EM_STAGE_DIR ?= $(B)/check-stages
check:
	@rm -rf $(B)/check-stages
	+@$(STAGE) build $(MAKE) --no-print-directory check-build
	+@$(MAKE) --no-print-directory SAN_PRE= UNIT_TESTS='$$(LIB_TESTS)' check-stages || { $(STAGE) --table check; exit 1; }
	@$(STAGE) --table check
	@echo "make check: all stages passed (lint, unit, python, install-check, sanitize, valgrind, fuzz, verify, gate-test, stats, conformance)"
check-build: all $(TESTS) $(STATS) $(B)/.deps-check $(B)/.deps-proofs $(CONFORM_DEPS) $(B)/tools/gen_conformance \
             san-build
check-stages: $(CHECK_STAGES)

CHECK_FULL_FUZZ_SECONDS ?= 120
check-full:
	@rm -rf $(B)/check-full-stages
	+@$(MAKE) --no-print-directory EM_STAGE_DIR=$(B)/check-full-stages check-full-stages \
	  || { EM_STAGE_DIR=$(B)/check-full-stages $(STAGE) --table check-full; exit 1; }
	@EM_STAGE_DIR=$(B)/check-full-stages $(STAGE) --table check-full
check-full-stages: valgrind-full fuzz-campaign stats-full
.PHONY: check-build check-chain check-stages check-full check-full-stages san-build sanitize-cli sanitize-lib valgrind-full fuzz-campaign

# The Python binding's tests (pytest from Debian's python3-pytest), against this build.
python: $(B)/.deps-check $(B)/expmech $(B)/libexpmech.so $(B)/$(SONAME)
	@$(STAGE) python env EXPMECH_LIB=$(CURDIR)/$(B)/$(SONAME) EXPMECH_BIN=$(CURDIR)/$(B)/expmech PYTHONPATH=python \
	  $(PYTHON) -m pytest -q -p no:cacheprovider python/tests

# docs/figures.md's figures: the tables in docs/figures/data/ (expmech's output only) and the SVGs
# drawn from them (expmech plot, gnuplot); tests/test_figures.c regenerates the tables.
figures: $(B)/expmech
	@EXPMECH=$(B)/expmech bash mk/figures.sh docs/figures

# make unit runs every test program; in make check the command-line tests run in the
# valgrind stage instead (each of their runs there is the program as built, or the same
# program under memcheck, and every assertion is checked), so unit runs the others.
UNIT_TESTS ?= $(TESTS)
unit: lint $(TESTS) $(B)/expmech $(B)/libexpmech.so $(B)/$(SONAME) $(B)/conformance/c_sampler
	@$(STAGE) unit bash mk/run-tests.sh $(UNIT_TESTS)

# The floors of src/ (src/README.md): no include upward, expmech.h only in the front ends,
# no two units depending on each other through includes or calls.
lint: $(LIB_OBJ)
	@$(STAGE) lint $(PYTHON) mk/check-floors.py $(B)

# ---------------------------------------------------------- sanitize, valgrind
# The unit tests again, built with AddressSanitizer + UndefinedBehaviorSanitizer (leak
# detection on): any report fails the test that triggered it (the CLI tests run the
# sanitized program too).  One instrumented build (clang) serves make sanitize and the fuzz
# harnesses: its objects also carry libFuzzer's coverage counters (-fsanitize=fuzzer-no-link),
# which the sanitized program writes out per test run (mk/em-cov.c) for make valgrind.
SB := build-asan
SAN_CC := clang
# EM_NO_CLONES: one copy of each block loop (src/core/em_vec.h), the baseline one, which
# the main build's tests do not run on a CPU with AVX2.
SAN_CFLAGS := -O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer \
              -fno-sanitize-recover=undefined -DEM_NO_CLONES
# WARN empty: the warnings gate is the main build (gcc); clang warns differently
SAN_MAKE = $(MAKE) --no-print-directory -s B=$(SB) CC=$(SAN_CC) CFLAGS="$(SAN_CFLAGS)" WARN= PROG_EXTRA=$(SB)/mk/em-cov.o
# The numeric floors (src/core, src/num, src/oracle) without libFuzzer's comparison tracing
# (trace-cmp): a callback on every comparison made their hot loops 3-4x slower under ASan
# (em_exact_select's scan: test_exact_d 21 s -> 6 s of CPU), and the fuzz harnesses
# drive the parsers of src/io, whose comparisons keep it.  Edge coverage stays everywhere.
$(SB)/src/core/%.o $(SB)/src/num/%.o $(SB)/src/oracle/%.o $(SB)/src/judge/%.o: ALL_CFLAGS += -fno-sanitize-coverage=trace-cmp
$(SB)/mk/em-cov.o: mk/em-cov.c
	@mkdir -p $(dir $@)
	$(SAN_CC) $(CSTD) $(WARN) -O1 -g -c $< -o $@
san-build: $(B)/.deps-check
	+@$(STAGE) sanitize-build $(SAN_MAKE) $(SB)/expmech $(TESTS:$(B)/%=$(SB)/%) $(FUZZ_TARGETS)
# Two stages: the CLI tests first (they record the coverage make valgrind chooses its runs
# from, so valgrind starts as soon as they end), the other tests beside valgrind.
SAN_ENV = CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-4} ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 EM_EXPMECH=$(SB)/expmech
LIB_TESTS = $(filter-out $(CLI_TESTS),$(TESTS))
SAN_PRE ?= san-build
SAN_DEPS = $(SAN_PRE) $(B)/expmech $(B)/libexpmech.so $(B)/$(SONAME) $(B)/conformance/c_sampler
sanitize: sanitize-cli sanitize-lib
sanitize-cli: $(SAN_DEPS)
	@rm -rf $(SB)/cov; mkdir -p $(SB)/cov
	@$(STAGE) sanitize-cli env $(SAN_ENV) EM_COV_DIR=$(CURDIR)/$(SB)/cov bash mk/run-tests.sh $(CLI_TESTS:$(B)/%=$(SB)/%)
	@$(PYTHON) mk/valgrind-select.py choose $(SB)/cov $(SB)/valgrind-select.txt
sanitize-lib: $(SAN_DEPS)
	@$(STAGE) sanitize-lib env $(SAN_ENV) bash mk/run-tests.sh $(LIB_TESTS:$(B)/%=$(SB)/%)

# The command-line tests with the program under valgrind (mk/valgrind-expmech): a memory
# error or a definite leak is exit 97, a failed test.  make valgrind runs valgrind once on each
# distinct path: on the cheapest test runs (a run: one call of run() in a test, its commands and
# pipes) that together reach every edge of the program that all the sanitized test runs reach,
# chosen greedily from their coverage and CPU time (mk/valgrind-select.py, written by make
# sanitize); the
# other runs use the program as built (they ran under ASan already).  make valgrind-full runs
# every run under valgrind (make check-full).  Both start memcheck once: a run is a fork of
# the program's server under memcheck (mk/vg-serve.c, mk/vg-serve.sh), which reports the
# run's errors and leaks as its own process would, without memcheck's start-up per run.
CLI_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(shell grep -l em_cli_util.h tests/test_*.c))
# valgrind slows the program 20-50x: the tests' timeouts are scaled (Check's multiplier), so
# a loaded machine does not turn a slow run into a failure.
VALGRIND_RUN = CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-4} EM_EXPMECH=mk/valgrind-expmech bash mk/run-tests.sh $(CLI_TESTS)
valgrind: sanitize-cli $(B)/.deps-check $(CLI_TESTS) $(B)/expmech $(B)/vg-serve
	@rm -f $(SB)/valgrind-seen.txt
	@$(STAGE) valgrind env EM_VALGRIND_SELECT=$(CURDIR)/$(SB)/valgrind-select.txt \
	  EM_VALGRIND_SEEN=$(CURDIR)/$(SB)/valgrind-seen.txt bash mk/vg-serve.sh $(B) $(VALGRIND_RUN)
	@$(PYTHON) mk/valgrind-select.py seen $(SB)/valgrind-select.txt $(SB)/valgrind-seen.txt
valgrind-full: $(B)/.deps-check $(CLI_TESTS) $(B)/expmech $(B)/vg-serve
	@$(STAGE) valgrind-full bash mk/vg-serve.sh $(B) $(VALGRIND_RUN)

stats: $(STATS) $(B)/expmech
	@$(STAGE) stats bash mk/run-stats.sh quick $(STATS)

stats-full: $(STATS) $(B)/expmech
	@$(STAGE) stats-full bash mk/run-stats.sh full $(STATS)

# Issue 15's side-by-side table (mk/bench.sh: one process per figure, build/bench.json);
# bench-all adds the older programs' details and the 10^7-candidate memory run (minutes).
BENCH_MORE := $(filter-out $(B)/stats/bench_speed,$(BENCHES))
bench: $(B)/stats/bench_speed $(B)/expmech $(B)/libexpmech.so $(B)/$(SONAME)
	@PYTHON=$(PYTHON) CC=$(CC) bash mk/bench.sh $(B)

bench-all: bench $(BENCH_MORE)
	@for b in $(BENCH_MORE); do echo "== $$b"; $$b || exit 1; done
	@echo "== stats/bench_memory.sh"; bash stats/bench_memory.sh $(B)/expmech

# docs/speed.md, rewritten from build/bench.json alone (run make bench first).
bench-doc:
	@$(PYTHON) mk/bench_report.py doc $(B)/bench.json docs/speed.md

# ----------------------------------------------------------------- proofs
verify: $(B)/.deps-proofs
	@$(STAGE) verify bash proofs/verify.sh replay

prove: $(B)/.deps-proofs
	@bash proofs/verify.sh update

# Every WP and Why3 cache emptied, every goal proved again (each WP goal first by the prover
# its committed proof script names); its timing goes to proofs/report/timing-prove.json and
# README's status table.  prove-scratch: the proof scripts emptied too, the provers racing on
# every goal (timing-scratch.json).  proof-floor: not a gate; WP's goal generation alone (Qed
# only, no prover, no cache), the least any WP run costs here (timing-floor.json).
prove-cold: $(B)/.deps-proofs
	@bash proofs/verify.sh cold

prove-scratch: $(B)/.deps-proofs
	@bash proofs/verify.sh scratch

proof-floor: $(B)/.deps-proofs
	@bash proofs/verify.sh floor; rc=$$?; [ $$rc -eq 3 ] || exit 1

# README's proof timings: the last full replay's (build/timing-replay.json, written by
# make verify) become the committed ones and the status table is regenerated.
proof-timing:
	@test -f $(B)/timing-replay.json || { echo "run make verify first"; exit 1; }
	@cp $(B)/timing-replay.json proofs/report/timing-replay.json
	@python3 proofs/wp_report.py table > proofs/report/status.md
	@python3 proofs/wp_report.py readme README.md proofs/report/status.md

# The gate's own tests: planted defects (a broken contract, a false lemma, an inconsistent
# precondition, a stale or empty cache, a proof script with a tactic, an axiom, an admit, a false theorem, a 1e6 literal, a missing or
# unknown prover) must each fail proofs/verify.sh; run on private copies (tests/test_gate.sh).
gate-test: $(B)/.deps-check
	@$(STAGE) gate-test bash tests/test_gate.sh

# ------------------------------------------------------------------- fuzzing
# clang's libFuzzer with ASan + UBSan (leaks included): fuzz/README.md.  `make fuzz` runs
# each harness FUZZ_SECONDS; `make fuzz-ci` (make check) 20 s each with a fixed seed;
# `make fuzz-campaign` (make check-full) CHECK_FULL_FUZZ_SECONDS each; `make fuzz-full` longer.
# The library and CLI are make sanitize's objects (compiled once, coverage-instrumented, linked
# into every harness); only the program's main file is compiled again, without its main.
FB := build-fuzz
FUZZ_TARGETS := $(patsubst fuzz/%.c,$(FB)/%,$(wildcard fuzz/fuzz_*.c))
FUZZ_CFLAGS := $(CSTD) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
               -DEM_NO_CLONES -Isrc/include -Isrc -I.
FUZZ_SECONDS ?= 20
FUZZ_TIMEOUT ?= 1
# (in san-build's make, where B is $(SB): the objects are the sanitized build's)
$(FB)/obj/src/cli/expmech.o: src/cli/expmech.c $(HEADERS) $(B)/gen/cli_help.h | deps-built
	@mkdir -p $(dir $@)
	clang $(subst -fsanitize=fuzzer,-fsanitize=fuzzer-no-link,$(FUZZ_CFLAGS)) -I$(B)/gen -Dmain=em_program_main -c -o $@ $<
$(FB)/%: fuzz/%.c $(FB)/obj/src/cli/expmech.o $(CLI_OBJ) $(B)/libexpmech.a $(HEADERS) | deps-built
	@mkdir -p $(FB)
	clang $(FUZZ_CFLAGS) -o $@ $< $(FB)/obj/src/cli/expmech.o $(CLI_OBJ) $(B)/libexpmech.a $(LDLIBS)

.PHONY: fuzz fuzz-ci fuzz-full fuzz-build
fuzz-build: san-build
fuzz: san-build
	@bash mk/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TIMEOUT) $(FUZZ_TARGETS)
# In make check: a fixed seed, 20 s per harness, a 5 s timeout (the machine may be busy).
fuzz-ci: $(SAN_PRE)
	@$(STAGE) fuzz env FUZZ_SEED=1 bash mk/run-fuzz.sh 20 5 $(FUZZ_TARGETS)
fuzz-campaign: san-build
	@$(STAGE) fuzz-campaign env FUZZ_SEED=1 bash mk/run-fuzz.sh $(CHECK_FULL_FUZZ_SECONDS) 5 $(FUZZ_TARGETS)
fuzz-full: san-build
	@bash mk/run-fuzz.sh $${FUZZ_FULL_SECONDS:-1800} 1 $(FUZZ_TARGETS)

clean:
	rm -rf $(B) $(SB) $(FB)
