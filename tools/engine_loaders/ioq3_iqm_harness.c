// Runs ioquake3's own R_LoadIQM (code/renderergl1/tr_model_iqm.c with the
// static helpers before it, cut out by iqm_run.sh at build time; iqm.h from
// code/renderercommon) on a file, under AddressSanitizer: the file in a buffer
// of its size plus the NUL FS_ReadFile adds (a read past that is reported),
// ri.Hunk_Alloc a calloc (int size as ioquake3's; one it cannot give drops to
// the console, Com_Error). Exit 0: loaded; 2: refused (qfalse) or dropped.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <ctype.h>
#include <math.h>
typedef unsigned char byte;
typedef enum { qfalse, qtrue } qboolean;
typedef float vec_t; typedef vec_t vec3_t[3]; typedef vec_t quat_t[4];
#define LittleLong(x) (x)
#define MAX_QPATH 64
#define SHADER_MAX_VERTEXES 1000
#define SHADER_MAX_INDEXES (6 * SHADER_MAX_VERTEXES)
#define ARRAY_LEN(x) (sizeof(x) / sizeof(*(x)))
#define PRINT_WARNING 2
#define LIGHTMAP_NONE -1
#define DotProduct(x, y) ((x)[0] * (y)[0] + (x)[1] * (y)[1] + (x)[2] * (y)[2])
#define VectorScale(v, s, o) ((o)[0] = (v)[0] * (s), (o)[1] = (v)[1] * (s), (o)[2] = (v)[2] * (s))
#define VectorCopy(a, b) ((b)[0] = (a)[0], (b)[1] = (a)[1], (b)[2] = (a)[2])
#define QuatCopy(a, b) ((b)[0] = (a)[0], (b)[1] = (a)[1], (b)[2] = (a)[2], (b)[3] = (a)[3])
#define Com_Memcpy memcpy
#include "iqm.h"
typedef enum { h_high, h_low, h_dontcare } ha_pref;
typedef enum { SF_BAD, SF_IQM = 11 } surfaceType_t;
typedef enum { MOD_BAD, MOD_BRUSH, MOD_MESH, MOD_MDR, MOD_IQM } modtype_t;
typedef struct shader_s { qboolean defaultShader; } shader_t;
typedef struct { vec3_t translate; quat_t rotate; vec3_t scale; } iqmTransform_t;
typedef struct { // tr_local.h
    int num_vertexes, num_triangles, num_frames, num_surfaces, num_joints, num_poses;
    struct srfIQModel_s *surfaces; int *triangles;
    float *positions, *texcoords, *normals, *tangents; byte *colors; int *influences;
    byte *influenceBlendIndexes; union { float *f; byte *b; } influenceBlendWeights;
    int blendWeightsType; char *jointNames; int *jointParents;
    float *bindJoints, *invBindJoints; iqmTransform_t *poses; float *bounds;
} iqmData_t;
typedef struct srfIQModel_s {
    surfaceType_t surfaceType; char name[MAX_QPATH]; shader_t *shader; iqmData_t *data;
    int first_vertex, num_vertexes, first_triangle, num_triangles, first_influence, num_influences;
} srfIQModel_t;
typedef struct { char name[MAX_QPATH]; modtype_t type; void *modelData; } model_t;
static void Printf(int level, const char *fmt, ...) { (void)level; va_list a; va_start(a, fmt); vfprintf(stderr, fmt, a); va_end(a); }
static void *Hunk_Alloc(int size, ha_pref pref) { // common.c: Com_Error(ERR_DROP, "Hunk_Alloc failed on %i")
    (void)pref; void *p = size < 0 ? NULL : calloc(1, size ? size : 1);
    if (!p) { fprintf(stderr, "Hunk_Alloc failed on %i\n", size); exit(2); }
    return p;
}
static struct { void (*Printf)(int, const char *, ...); void *(*Hunk_Alloc)(int, ha_pref); } ri = { Printf, Hunk_Alloc };
static shader_t dummy_shader;
static struct { shader_t *defaultShader; } tr = { &dummy_shader };
static shader_t *R_FindShader(const char *name, int lightmap, qboolean mip) { (void)lightmap; (void)mip; (void)strlen(name); return &dummy_shader; }
static int Q_strncmp(const char *a, const char *b, int n) { return strncmp(a, b, n); }
static void Q_strncpyz(char *d, const char *s, int n) { strncpy(d, s, n - 1); d[n - 1] = 0; }
static char *Q_strlwr(char *s) { for (char *p = s; *p; p++) *p = tolower((unsigned char)*p); return s; }
static void ClearBounds(vec3_t a, vec3_t b) { a[0] = a[1] = a[2] = 99999; b[0] = b[1] = b[2] = -99999; }
static void AddPointToBounds(const vec3_t v, vec3_t a, vec3_t b) {
    for (int i = 0; i < 3; i++) { if (v[i] < a[i]) a[i] = v[i]; if (v[i] > b[i]) b[i] = v[i]; }
}
#include "loadiqm.inc"
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); if (!f) return 3;
    fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
    char *buf = malloc(len + 1); if (fread(buf, 1, len, f) != (size_t)len) return 3; fclose(f);
    buf[len] = 0; // files.c FS_ReadFileDir: Hunk_AllocateTempMemory(len+1), buf[len] = 0
    static model_t mod; strncpy(mod.name, argv[1], MAX_QPATH - 1);
    return R_LoadIQM(&mod, buf, len, argv[1]) ? 0 : 2;
}
