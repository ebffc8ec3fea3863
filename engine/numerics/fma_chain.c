/* MKL's blocked FMA chains (engine/numerics/chains.py's fma_blocks), compiled: the same bits as the numpy path,
   ~40 times faster (a 64x1000 @ 1000x100 product: ~0.3 ms against ~13 ms).

   out[i, j]: for each block of k, in order, the chain acc = fmaf(a[i, t], b[t, j], acc) from +0; the blocks'
   results added in order to start[i, j] (or to the first block's result when start is NULL), each sum rounded to
   float32; then + 0.0f (-0 becomes +0). fmaf rounds a * b + c once to nearest-even, as the FMA instruction does,
   subnormals included (nothing here sets flush-to-zero). Built without -ffast-math and with -ffp-contract=off (see
   setup.py): the compiler may neither fuse the plain additions nor drop the + 0.0f.

   a: n x k, b: k x m, start and out: n x m, all C-contiguous float32; blocks: nb lengths summing to k.
   Returns 0, or -1 when it could not allocate its row buffer. Loaded with ctypes by engine/numerics/native.py. */
#include <math.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) int blocks_impl(const float *a, const float *b, long n, long k, long m,
                                                            const long *blocks, long nb, const float *start,
                                                            float *out) {
    float *acc = malloc(sizeof(float) * (size_t)(m > 0 ? m : 1));
    if (!acc) return -1;
    for (long i = 0; i < n; i++) {
        const float *ai = a + i * k;
        float *oi = out + i * m;
        long t0 = 0;
        for (long q = 0; q < nb; q++) {
            for (long j = 0; j < m; j++) acc[j] = 0.0f;
            for (long t = t0; t < t0 + blocks[q]; t++) {
                const float av = ai[t];
                const float *bt = b + t * m;
                for (long j = 0; j < m; j++) acc[j] = fmaf(av, bt[j], acc[j]);
            }
            t0 += blocks[q];
            if (q == 0 && !start) {
                for (long j = 0; j < m; j++) oi[j] = acc[j];
            } else if (q == 0) {
                for (long j = 0; j < m; j++) oi[j] = start[i * m + j] + acc[j];
            } else {
                for (long j = 0; j < m; j++) oi[j] = oi[j] + acc[j];
            }
        }
        for (long j = 0; j < m; j++) oi[j] = oi[j] + 0.0f;
    }
    free(acc);
    return 0;
}

/* The same loop compiled twice: with AVX2 and FMA (the inner loop becomes 8-lane vfmadd), and plain (fmaf from
   libm, one call per element: slower, the same bits), chosen by the CPU at run time. */
__attribute__((target("avx2,fma"))) static int blocks_fma(const float *a, const float *b, long n, long k, long m,
                                                         const long *blocks, long nb, const float *start,
                                                         float *out) {
    return blocks_impl(a, b, n, k, m, blocks, nb, start, out);
}

static int blocks_plain(const float *a, const float *b, long n, long k, long m, const long *blocks, long nb,
                        const float *start, float *out) {
    return blocks_impl(a, b, n, k, m, blocks, nb, start, out);
}

int gradtrace_fma_blocks(const float *a, const float *b, long n, long k, long m, const long *blocks, long nb,
                         const float *start, float *out) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return blocks_fma(a, b, n, k, m, blocks, nb, start, out);
    return blocks_plain(a, b, n, k, m, blocks, nb, start, out);
}

/* Elementwise out[i] = fmaf(a[i], b[i], c[i]) (fma.fma32 for float32 operands: PyTorch's pointwise kernels with
   GCC's contraction, as in the optimizers' addcmul_ and lerp_), n elements, all C-contiguous float32. */
static inline __attribute__((always_inline)) void fma32_impl(const float *a, const float *b, const float *c,
                                                            float *out, long n) {
    for (long i = 0; i < n; i++) out[i] = fmaf(a[i], b[i], c[i]);
}

__attribute__((target("avx2,fma"))) static void fma32_fma(const float *a, const float *b, const float *c, float *out,
                                                         long n) {
    fma32_impl(a, b, c, out, n);
}

static void fma32_plain(const float *a, const float *b, const float *c, float *out, long n) {
    fma32_impl(a, b, c, out, n);
}

void gradtrace_fma32(const float *a, const float *b, const float *c, float *out, long n) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        fma32_fma(a, b, c, out, n);
        return;
    }
    fma32_plain(a, b, c, out, n);
}

/* out[i] = (float)((double)y[i] + alpha * (double)x[i]): the optimizers' y + alpha * x as engine/optim computes it
   in numpy (float64, then rounded to float32), the same operations in the same order (no contraction: see the
   flags in setup.py). alpha is a float32 value held in a double. */
void gradtrace_axpy_f64(const float *y, double alpha, const float *x, float *out, long n) {
    for (long i = 0; i < n; i++) out[i] = (float)((double)y[i] + alpha * (double)x[i]);
}

/* One Adam step (engine/optim/adaptive.py, amsgrad off) for float32 tensors, each operation as the numpy path does
   it, in the same order (float32 operations; m's lerp in float64 as optimizer._axpy; v's addcmul as one fmaf;
   the correctly rounded sqrtf, which is numerics.sqrt wherever the caller lets this run):
     m = (float)(m + a1 * (grad - m)),  v = fmaf(vf * grad, grad, v * b2),
     out = p + (step * m) / (sqrtf(v) / c2 + eps).
   m and v are updated in place; out is the new parameter. */
static inline __attribute__((always_inline)) void adam_impl(const float *grad, float *m, float *v, const float *p,
                                                           float *out, long n, double a1, float b2, float vf,
                                                           float c2, float eps, float step) {
    for (long i = 0; i < n; i++) {
        const float g = grad[i];
        const float d = g - m[i];
        const float mi = (float)((double)m[i] + a1 * (double)d);
        m[i] = mi;
        const float vi = fmaf(vf * g, g, v[i] * b2);
        v[i] = vi;
        const float denom = sqrtf(vi) / c2 + eps;
        out[i] = p[i] + (step * mi) / denom;
    }
}

__attribute__((target("avx2,fma"))) static void adam_fma(const float *grad, float *m, float *v, const float *p,
                                                        float *out, long n, double a1, float b2, float vf, float c2,
                                                        float eps, float step) {
    adam_impl(grad, m, v, p, out, n, a1, b2, vf, c2, eps, step);
}

static void adam_plain(const float *grad, float *m, float *v, const float *p, float *out, long n, double a1, float b2,
                       float vf, float c2, float eps, float step) {
    adam_impl(grad, m, v, p, out, n, a1, b2, vf, c2, eps, step);
}

void gradtrace_adam_f32(const float *grad, float *m, float *v, const float *p, float *out, long n, double a1,
                        float b2, float vf, float c2, float eps, float step) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        adam_fma(grad, m, v, p, out, n, a1, b2, vf, c2, eps, step);
        return;
    }
    adam_plain(grad, m, v, p, out, n, a1, b2, vf, c2, eps, step);
}

/* ATen's float32 Box-Muller over blocks of 16 uniforms (engine/random.py's _box_muller16, avx_mathfun's log256_ps
   and sincos256_ps), operation for operation as the numpy path does them: F(a, b, c) is that path's contracted
   multiply-add, the product and sum in double and then rounded to float32; the constants are rounded from double
   as numpy's np.float32(c) does. u: blocks x 16 uniforms, out: blocks x 16 normals, n * std + mean in double. */
#include <stdint.h>
#include <string.h>

static inline float F(float a, float b, float c) { return (float)((double)a * (double)b + (double)c); }
static inline uint32_t bits_of(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline float float_of(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

static float log256(float x) {
    const int invalid = x <= 0.0f;
    const float minpos = float_of(0x00800000u);
    if (x < minpos) x = minpos;
    int32_t imm0 = (int32_t)(bits_of(x) >> 23);
    x = float_of((bits_of(x) & ~0x7F800000u) | bits_of(0.5f));
    imm0 = imm0 - 0x7F;
    float e = (float)imm0 + 1.0f;
    const int mask = x < (float)0.707106781186547524;
    const float tmp = mask ? x : 0.0f;
    x = x - 1.0f;
    e = e - (mask ? 1.0f : 0.0f);
    x = x + tmp;
    const float z = x * x;
    static const double coef[8] = {-1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
                                   -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1};
    float y = (float)7.0376836292e-2;
    for (int i = 0; i < 8; i++) y = F(y, x, (float)coef[i]);
    y = y * x;
    y = F(y, z, e * (float)-2.12194440e-4);
    y = F(-z, 0.5f, y);
    x = x + y;
    x = F(e, (float)0.693359375, x);
    return invalid ? NAN : x;
}

static void sincos256(float x, float *s_out, float *c_out) {
    uint32_t sign_sin = bits_of(x) & 0x80000000u;
    x = fabsf(x);
    float y = x * (float)1.27323954473516;
    int32_t j = (int32_t)y; /* truncation, as _mm256_cvttps_epi32 (x is a finite angle in [0, 2 pi) here) */
    j = (j + 1) & ~(int32_t)1;
    y = (float)j;
    const uint32_t swap_sin = ((uint32_t)j & 4u) << 29;
    const int poly = (j & 2) == 0;
    x = F(y, (float)-0.78515625, x);
    x = F(y, (float)-2.4187564849853515625e-4, x);
    x = F(y, (float)-3.77489497744594108e-8, x);
    const uint32_t sign_cos = (~(uint32_t)(j - 2) & 4u) << 29;
    sign_sin = sign_sin ^ swap_sin;
    const float z = x * x;
    float yc = F((float)2.443315711809948e-005, z, (float)-1.388731625493765e-003);
    yc = F(yc, z, (float)4.166664568298827e-002);
    yc = yc * z;
    yc = F(yc, z, -(z * 0.5f));
    yc = yc + 1.0f;
    float ys = F((float)-1.9515295891e-4, z, (float)8.3321608736e-3);
    ys = F(ys, z, (float)-1.6666654611e-1);
    ys = ys * z;
    ys = F(ys, x, x);
    const float s = poly ? ys : yc, c = poly ? yc : ys;
    *s_out = float_of(bits_of(s) ^ sign_sin);
    *c_out = float_of(bits_of(c) ^ sign_cos);
}

void gradtrace_box_muller16_f32(const float *u, float *out, long blocks, double std, double mean) {
    const float two_pi = (float)(2.0 * 3.141592653589793);
    for (long b = 0; b < blocks; b++) {
        const float *ub = u + 16 * b;
        float *ob = out + 16 * b;
        for (int i = 0; i < 8; i++) {
            const float u1 = 1.0f - ub[i], u2 = ub[8 + i];
            const float radius = sqrtf(-2.0f * log256(u1));
            const float theta = two_pi * u2;
            float s, c;
            sincos256(theta, &s, &c);
            const float n1 = radius * c, n2 = radius * s;
            ob[i] = (float)((double)n1 * std + mean);
            ob[8 + i] = (float)((double)n2 * std + mean);
        }
    }
}

/* engine/numerics/summation.py's cascade sums (ATen's cascade_sum), the same bits as its numpy path: x is size x m,
   C-contiguous, and each of its m columns is summed on its own, every addition rounded to T as numpy rounds it.
   multi: the 4-level cascade of _multi_row_sum (chunks of 2^power rows summed in order from their first row, the
   chunk sums carried up the levels, then the rows left over in order, + 0, then levels 1 to 3 added); row: _row_sum
   (4 interleaved cascades over rows 4i + k, the last size % 4 rows added to the first, then the other three). */
static long ceil_log2(long x) { return x <= 2 ? 1 : 64 - __builtin_clzl((unsigned long)(x - 1)); }

#define CASCADE(T, SUFFIX)                                                                                     \
    static T multi_##SUFFIX(const T *y, long n, long stride) {                                                 \
        long power = ceil_log2(n) / 4;                                                                         \
        if (power < 4) power = 4;                                                                              \
        unsigned long step = 1UL << power, mask = step - 1;                                                   \
        long chunks = n / (long)step, i = 0;                                                                   \
        T acc[4] = {0, 0, 0, 0};                                                                               \
        for (long c = 0; c < chunks; c++) {                                                                    \
            const T *p = y + c * (long)step * stride;                                                          \
            T s = p[0];                                                                                        \
            for (long r = 1; r < (long)step; r++) s = s + p[r * stride];                                       \
            acc[0] = s;                                                                                        \
            i += (long)step;                                                                                   \
            for (int j = 1; j < 4; j++) {                                                                      \
                acc[j] = acc[j] + acc[j - 1];                                                                  \
                acc[j - 1] = 0;                                                                                \
                if ((unsigned long)i & (mask << (j * power))) break;                                           \
            }                                                                                                  \
        }                                                                                                      \
        T s = 0;                                                                                               \
        if (i < n) {                                                                                           \
            s = y[i * stride];                                                                                 \
            for (long r = i + 1; r < n; r++) s = s + y[r * stride];                                            \
            s = s + (T)0;                                                                                      \
        }                                                                                                      \
        for (int j = 1; j < 4; j++) s = s + acc[j];                                                            \
        return s;                                                                                              \
    }                                                                                                          \
    void gradtrace_multi_row_sum_##SUFFIX(const T *x, long n, long m, T *out) {                                \
        for (long j = 0; j < m; j++) out[j] = multi_##SUFFIX(x + j, n, m);                                      \
    }                                                                                                          \
    void gradtrace_row_sum_##SUFFIX(const T *x, long size, long m, T *out) {                                   \
        long si = size / 4;                                                                                    \
        for (long j = 0; j < m; j++) {                                                                         \
            const T *col = x + j;                                                                              \
            T part[4];                                                                                         \
            for (int k = 0; k < 4; k++) part[k] = multi_##SUFFIX(col + k * m, si, 4 * m);                      \
            T p = part[0];                                                                                     \
            for (long r = si * 4; r < size; r++) p = p + col[r * m];                                           \
            for (int k = 1; k < 4; k++) p = p + part[k];                                                       \
            out[j] = p;                                                                                        \
        }                                                                                                      \
    }

CASCADE(float, f32)
CASCADE(double, f64)
