// Runs id's Quake II Mod_LoadAliasModel (ref_gl/gl_model.c, cut out by
// run.sh at build time) on a file under AddressSanitizer: the file in an exactly
// sized buffer, the hunk as linux/q_shlinux.c makes it (Hunk_Begin(0x200000)
// in Mod_ForName; Hunk_Alloc hands out cacheline-rounded pieces of it and
// stops with "Hunk_Alloc overflow" past it). Exit 0: loaded; 2: refused.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
typedef unsigned char byte;
typedef float vec3_t[3];
#define LittleLong(x) (x)
#define LittleShort(x) (x)
#define LittleFloat(x) (x)
#define MAX_LBM_HEIGHT 480
#define ERR_DROP 1
#include "qfiles.h"
typedef struct image_s { int x; } image_t;
typedef enum { it_skin } imagetype_t;
typedef enum { mod_bad, mod_brush, mod_sprite, mod_alias } modtype_t;
typedef struct model_s { char name[64]; modtype_t type; image_t *skins[MAX_MD2SKINS]; vec3_t mins, maxs; } model_t;
static void Sys_Error(int code, const char *fmt, ...) { (void)code; va_list a; va_start(a, fmt); vfprintf(stderr, fmt, a); va_end(a); fputc('\n', stderr); exit(2); }
static struct { void (*Sys_Error)(int, const char *, ...); } ri = { Sys_Error };
static byte *membase; static int maxhunksize, curhunksize;
static void *Hunk_Begin(int maxsize) { maxhunksize = maxsize; curhunksize = 0; membase = calloc(1, maxsize + sizeof(int)); return membase + sizeof(int); }
static void *Hunk_Alloc(int size) { size = (size + 31) & ~31; if (curhunksize + size > maxhunksize) Sys_Error(0, "Hunk_Alloc overflow"); byte *buf = membase + sizeof(int) + curhunksize; curhunksize += size; return buf; }
static image_t img;
static image_t *GL_FindImage(char *name, imagetype_t t) { (void)t; (void)strlen(name); return &img; }
#include "loadmd2.inc"
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); if (!f) return 3;
    fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
    void *buf = malloc(len); if (fread(buf, 1, len, f) != (size_t)len) return 3; fclose(f);
    if (len < 4 || *(int *)buf != IDALIASHEADER) return 2; // Mod_ForName: unknown fileid
    static model_t mod; strncpy(mod.name, argv[1], 63);
    Hunk_Begin(0x200000);
    Mod_LoadAliasModel(&mod, buf);
    return 0;
}
