// Runs yquake2's own Mod_LoadMD2 (src/client/refresh/files/models.c, cut out
// by run.sh at build time) on a file, under AddressSanitizer: the file in an
// exactly sized buffer (a read past it is reported), the hunk as yquake2's
// own. Exit 0: loaded; 2: refused (returned NULL).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
typedef unsigned char byte;
typedef float vec3_t[3];
typedef int qboolean;
#define LittleLong(x) (x)
#define LittleShort(x) (x)
#define LittleFloat(x) (x)
#define MAX_LBM_HEIGHT 480
#define MAX_QPATH 64
#include "files.h"
struct image_s { int x; };
typedef enum { it_skin } imagetype_t;
typedef struct image_s *(*findimage_t)(const char *name, imagetype_t type);
typedef enum { mod_bad, mod_alias } modtype_t;
static void Com_Printf(const char *fmt, ...) { va_list a; va_start(a, fmt); vfprintf(stderr, fmt, a); va_end(a); fputc('\n', stderr); }
// yquake2's hunk (src/backends/unix/shared/hunk.c): Hunk_Begin reserves
// maxsize + sizeof(size_t) + 32 bytes (mmap, zeroed) with the used size in
// its first size_t; Hunk_Alloc hands out cacheline-rounded pieces after it.
static unsigned char *membase; static size_t maxhunksize, curhunksize;
static void *Hunk_Begin(int maxsize) { maxhunksize = maxsize + sizeof(size_t) + 32; curhunksize = 0; membase = calloc(1, maxhunksize); *((size_t *)membase) = curhunksize; return membase + sizeof(size_t); }
static void *Hunk_Alloc(int size) { size = (size + 31) & ~31; if (curhunksize + size > maxhunksize) { fprintf(stderr, "Hunk_Alloc overflow\n"); exit(2); } unsigned char *buf = membase + sizeof(size_t) + curhunksize; curhunksize += size; return buf; }
static struct image_s img;
static struct image_s *find(const char *name, imagetype_t t) { (void)t; return strnlen(name, 64) < 64 ? &img : NULL; }
#include "loadmd2.inc"
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); if (!f) return 3;
    fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
    void *buf = malloc(len); if (fread(buf, 1, len, f) != (size_t)len) return 3; fclose(f);
    vec3_t mins, maxs; struct image_s *skins[MAX_MD2SKINS]; modtype_t type;
    void *extra = Mod_LoadMD2(argv[1], buf, (int)len, mins, maxs, skins, find, &type);
    return extra ? 0 : 2;
}
