/* proofs/why3/cached_prover_hit.c: the hit path of proofs/why3/cached-prover, compiled.
 *
 *   cached_prover_hit SCRIPT REAL-PROVER ARGS... FILE
 *   cached_prover_hit --key REAL-PROVER ARGS... FILE   print the key (replay.sh checks it
 *                                                      against sha256sum before any use)
 *
 * A replay of the theorems makes about 2400 prover calls, every one a cache hit; through
 * the shell script each cost 6.5 to 7.2 ms of process starts (bash, sha256sum, cat), and
 * through this program 1.5 ms: about 14 s of CPU a replay.  It computes the same key as the
 * script (SHA-256 of each argument of the command line followed by a newline, then "--\n",
 * then the prover input FILE), and on a hit prints the recorded output and exits with the
 * recorded status, as the script does.  Anything else (a miss, an unreadable file, a
 * malformed entry) is left to the script SCRIPT, run with the same arguments, so running
 * and recording a prover stay in one place. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    uint32_t h[8];
    uint64_t len;          /* bytes hashed so far */
    unsigned char buf[64];
    size_t fill;
} sha256;

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void block(sha256 *s, const unsigned char *p) {
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
               (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(v, s->h, sizeof v);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
                      ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[i] + w[i];
        uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
                      ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) s->h[i] += v[i];
}

static void init(sha256 *s) {
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->len = 0;
    s->fill = 0;
}

static void update(sha256 *s, const void *data, size_t n) {
    const unsigned char *p = data;
    s->len += n;
    while (n > 0) {
        size_t k = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->buf + s->fill, p, k);
        s->fill += k, p += k, n -= k;
        if (s->fill == 64) block(s, s->buf), s->fill = 0;
    }
}

static void final(sha256 *s, char hex[65]) {
    uint64_t bits = s->len * 8;
    unsigned char pad = 0x80, zero = 0, be[8];
    update(s, &pad, 1);
    while (s->fill != 56) update(s, &zero, 1);
    for (int i = 0; i < 8; i++) be[i] = (unsigned char)(bits >> (56 - 8 * i));
    update(s, be, 8);
    for (int i = 0; i < 8; i++) sprintf(hex + 8 * i, "%08x", (unsigned)s->h[i]);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: cached_prover_hit SCRIPT REAL-PROVER [ARGS...] FILE\n");
        return 2;
    }
    const char *dir = getenv("EM_WHY3_CACHE");
    sha256 s;
    char hex[65], entry[4096];
    FILE *in = NULL, *e = NULL;
    int key_only = strcmp(argv[1], "--key") == 0;
    if ((dir == NULL && !key_only) || (in = fopen(argv[argc - 1], "rb")) == NULL) goto script;
    init(&s);
    for (int i = 2; i < argc - 1; i++) {
        update(&s, argv[i], strlen(argv[i]));
        update(&s, "\n", 1);
    }
    update(&s, "--\n", 3);
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) update(&s, buf, n);
    if (ferror(in)) goto script;
    fclose(in);
    in = NULL;
    final(&s, hex);
    if (key_only) return puts(hex) == EOF;
    if (snprintf(entry, sizeof entry, "%s/%s", dir, hex) >= (int)sizeof entry) goto script;
    if ((e = fopen(entry, "rb")) == NULL) goto script;
    /* the entry: the prover's exit status on the first line, then its output */
    int rc, c;
    if (fscanf(e, "%d", &rc) != 1 || fgetc(e) != '\n' || rc < 0 || rc > 255) goto script;
    const char *log = getenv("EM_WHY3_CACHE_LOG");
    if (log != NULL && *log != '\0') {
        FILE *l = fopen(log, "a");
        if (l == NULL || fputs("hit\n", l) == EOF || fclose(l) != 0) goto script;
    }
    while ((c = fgetc(e)) != EOF) putchar(c);
    if (ferror(e) || fflush(stdout) != 0) return 1;
    return rc;
script:
    if (key_only) {
        fprintf(stderr, "cached_prover_hit: cannot read %s\n", argv[argc - 1]);
        return 2;
    }
    if (in != NULL) fclose(in);
    if (e != NULL) fclose(e);
    argv[0] = "bash";
    execvp("bash", argv);
    perror("cached_prover_hit: bash");
    return 127;
}
