// Times Assimp's MD2 and MS3D import from memory, for bench/compare.sh.
//
// Usage: assimp_harness ITERATIONS FILE...
// For each file, the bytes are read once; then imports with
// Assimp::Importer::ReadFileFromMemory (no post-processing flags, the file's
// extension as the format hint: "md2" or "ms3d") are timed, measured the
// same way as bench/src/bin/bench_parse.rs. A memcpy of the
// same bytes is timed as a floor.
// Output lines: "RESULT <what> <file> <median µs per op> <fastest µs per op>";
// a file Assimp cannot import gives "FAILED assimp_import <file> <error>"
// (the other files are still measured) and exit status 1 at the end.
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "timing.hpp"

static std::vector<char> read_all(const char *path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot open %s\n", path);
        std::exit(2);
    }
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

// The file name's extension, lower-cased ("md2", "ms3d"): Assimp's hint.
static std::string extension(const char *path) {
    std::string s(path);
    size_t dot = s.find_last_of('.');
    if (dot == std::string::npos || s.find('/', dot) != std::string::npos) return "";
    std::string ext = s.substr(dot + 1);
    for (char &c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

static std::string stem(const char *path) {
    std::string s(path);
    size_t slash = s.find_last_of('/');
    if (slash != std::string::npos) s = s.substr(slash + 1);
    size_t dot = s.find_last_of('.');
    if (dot != std::string::npos) s = s.substr(0, dot);
    return s;
}


int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s ITERATIONS FILE...\n", argv[0]);
        return 2;
    }
    const long iterations = std::atol(argv[1]);
    int status = 0;
    for (int a = 2; a < argc; ++a) {
        const std::vector<char> bytes = read_all(argv[a]);
        const std::string name = stem(argv[a]);
        const std::string hint = extension(argv[a]);

        // memcpy baseline: copy the file bytes into a buffer.
        std::vector<char> copy(bytes.size());
        volatile char sink = 0;
        auto r = time_per_op(iterations * 10, [&]() {
            std::memcpy(copy.data(), bytes.data(), bytes.size());
            sink = sink + copy[bytes.size() / 2];
        });
        std::printf("RESULT memcpy %s %.3f %.3f\n", name.c_str(), r.first, r.second);

        // One importer, as a program loading many models would keep; each
        // import frees the previous scene.
        Assimp::Importer importer;
        // Import once untimed: a file Assimp rejects is reported, not timed.
        const aiScene *first =
            importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, hint.c_str());
        if (!first || first->mNumMeshes == 0) {
            std::printf("FAILED assimp_import %s %s\n", name.c_str(),
                        first ? "no meshes" : importer.GetErrorString());
            status = 1;
            continue;
        }
        size_t vertices = 0;
        bool failed = false;
        r = time_per_op(iterations, [&]() {
            const aiScene *scene =
                importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, hint.c_str());
            if (!scene || scene->mNumMeshes == 0) {
                failed = true;
                return;
            }
            for (unsigned m = 0; m < scene->mNumMeshes; ++m) vertices += scene->mMeshes[m]->mNumVertices;
        });
        if (failed || vertices == 0) {
            std::printf("FAILED assimp_import %s %s\n", name.c_str(), importer.GetErrorString());
            status = 1;
            continue;
        }
        std::printf("RESULT assimp_import %s %.3f %.3f\n", name.c_str(), r.first, r.second);
    }
    return status;
}
