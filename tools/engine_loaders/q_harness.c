// Runs Q2PRO's own MOD_ValidateMD2 and MOD_LoadMD2 (src/refresh/models.c at
// 3aa0d40, cut out by run.sh at build time) on a file,
// under AddressSanitizer, with the file in an exactly sized buffer. Exit 0:
// loaded (type MOD_ALIAS) or 4: loaded empty (MOD_EMPTY); 2: refused.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <math.h>
#include <limits.h>
#include <errno.h>
typedef unsigned char byte;
#define MakeLittleLong(a,b,c,d) (((uint32_t)(d)<<24)|((uint32_t)(c)<<16)|((uint32_t)(b)<<8)|(uint32_t)(a))
#include "md2.h"
#define USE_MD5 1
#define MAX_QPATH 64
#define NUMVERTEXNORMALS 162
#define TESS_MAX_VERTICES 6144
#define TESS_MAX_INDICES (3 * TESS_MAX_VERTICES)
#define MAX_TEXTURE_SIZE 8192
#define q_alignof(t) _Alignof(t)
#define ENSURE(x, e)    if (!(x)) return e
typedef float vec_t; typedef vec_t vec3_t[3];
typedef struct { int x; } image_t;
typedef struct { int x; } memhunk_t;
typedef struct { float st[2]; } maliastc_t;
typedef struct { int16_t pos[3]; uint8_t norm[2]; } maliasvert_t;
typedef struct { vec3_t scale, translate, bounds[2]; vec_t radius; } maliasframe_t;
typedef char maliasskinname_t[MAX_QPATH];
typedef struct { int numverts, numtris, numindices, numskins; uint16_t *indices; maliasvert_t *verts; maliastc_t *tcoords; maliasskinname_t *skinnames; image_t **skins; } maliasmesh_t;
enum { MOD_FREE, MOD_ALIAS, MOD_EMPTY };
typedef struct { int type; const char *name; memhunk_t hunk; int nummeshes, numframes; maliasmesh_t *meshes; maliasframe_t *frames; } model_t;
static struct { bool use_gpu_lerp; int hunk_align; uint8_t latlngtab[NUMVERTEXNORMALS][2]; } gl_static;
static memhunk_t temp_hunk[2];
#define MOD_MAXSIZE_GPU 0x800000
#define MOD_MAXSIZE_CPU 0x800000
static void Hunk_Begin(memhunk_t *h, size_t s) { (void)h; (void)s; }
static void *Hunk_TryAlloc(memhunk_t *h, size_t s, int a) { (void)h; (void)a; return calloc(1, s ? s : 1); }
static void *R_Mallocz(size_t s) { return calloc(1, s ? s : 1); }
#define MOD_GpuMalloc(size) Hunk_TryAlloc(&model->hunk, size, 0)
#define MOD_GpuMallocIndices(size) Hunk_TryAlloc(&model->hunk, size, 0)
#define MOD_CpuMalloc(size) Hunk_TryAlloc(&model->hunk, size, 0)
enum { Q_ERR_SUCCESS = 0, Q_ERR_FILE_TOO_SMALL = -1000, Q_ERR_UNKNOWN_FORMAT, Q_ERR_INVALID_FORMAT, Q_ERR_STRING_TRUNCATED };
#define Q_ERR(e) (-(e))
static const char *last_error = "";
static void Com_SetLastError(const char *e) { last_error = e; }
#define Com_DPrintf(...) (void)0
static void LittleBlock(void *d, const void *s, size_t n) { memcpy(d, s, n); }
#define LittleShort(x) (x)
#define LittleLong(x) (x)
static void LittleVector(const float *s, float *d) { d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; }
static void *Q_memccpy(void *d, const void *s, int c, size_t n) { return memccpy(d, s, c, n); }
#define IT_SKIN 0
#define IF_NONE 0
static image_t img;
static image_t *IMG_Find(const char *n, int t, int f) { (void)n; (void)t; (void)f; return &img; }
static void ClearBounds(vec3_t a, vec3_t b) { for (int i = 0; i < 3; i++) { a[i] = 1e30f; b[i] = -1e30f; } }
static void VectorVectorScale(const vec3_t a, const vec3_t s, vec3_t o) { for (int i = 0; i < 3; i++) o[i] = a[i] * s[i]; }
static void VectorAdd(const vec3_t a, const vec3_t b, vec3_t o) { for (int i = 0; i < 3; i++) o[i] = a[i] + b[i]; }
static vec_t RadiusFromBounds(const vec3_t a, const vec3_t b) { vec_t r = 0; for (int i = 0; i < 3; i++) { vec_t m = fmaxf(fabsf(a[i]), fabsf(b[i])); r += m * m; } return sqrtf(r); }
#include "loadmd2.inc"
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); if (!f) return 3;
    fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
    void *buf = malloc(len); if (fread(buf, 1, len, f) != (size_t)len) return 3; fclose(f);
    model_t m = { .name = argv[1] };
    int err = MOD_LoadMD2(&m, buf, len);
    if (err) { fprintf(stderr, "refused: %d %s\n", err, last_error); return 2; }
    return m.type == MOD_EMPTY ? 4 : 0;
}
