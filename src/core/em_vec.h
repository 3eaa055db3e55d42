/* EM_VECTOR_CLONES: a function so marked is compiled twice, for the baseline
   x86-64 (SSE2) and for AVX2, and the loader picks one by the CPU (GCC's
   target_clones, an ifunc).  Only the instruction set changes, not the
   arithmetic: "avx2" does not enable FMA, and the floating-point code that WP
   proves keeps its operations and their rounding; the wider vectors only let
   the vectoriser turn comparisons and selects on doubles into integer masks,
   which SSE2 code cannot do in GCC 12.  The proofs read the plain function:
   Frama-C defines __FRAMAC__.  Logic: none (no contract).  Tests: every core test. */
#ifndef EM_VEC_H
#define EM_VEC_H
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__FRAMAC__) && \
    !defined(EM_NO_CLONES)
#define EM_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define EM_VECTOR_CLONES
#endif
#endif
