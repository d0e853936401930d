// Times Assimp's MD5 import from memory, for bench/md5_compare.sh.
//
// Usage: assimp_md5_harness ITERATIONS MESH.md5mesh ANIM.md5anim
// Both files are read once. Assimp's MD5 importer opens the md5anim named
// like the md5mesh through its IO system, so an IOSystem serving the two
// buffers from memory ("player.md5mesh", "player.md5anim"; nothing else
// exists) is set on one importer, and Importer::ReadFile("player.md5mesh",
// no post-processing) is timed: warmed up, then batches of 10, the median
// and the fastest batch, as bench/src/bin/bench_md5.rs measures ours.
// Output lines: "RESULT <what> <name> <median µs per op> <fastest µs per op>";
// an import that fails gives "FAILED assimp_import <name> <error>" and
// exit status 1.
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/scene.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
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

// Files by name, served from memory.
class MemoryFiles : public Assimp::IOSystem {
public:
    std::map<std::string, const std::vector<char> *> files;

    bool Exists(const char *name) const override { return files.count(name) > 0; }
    char getOsSeparator() const override { return '/'; }
    Assimp::IOStream *Open(const char *name, const char *mode) override {
        (void)mode;
        auto f = files.find(name);
        if (f == files.end()) return nullptr;
        return new Assimp::MemoryIOStream(
            reinterpret_cast<const uint8_t *>(f->second->data()), f->second->size());
    }
    void Close(Assimp::IOStream *stream) override { delete stream; }
};

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s ITERATIONS MESH.md5mesh ANIM.md5anim\n", argv[0]);
        return 2;
    }
    const long iterations = std::atol(argv[1]);
    const std::vector<char> mesh = read_all(argv[2]);
    const std::vector<char> anim = read_all(argv[3]);
    Assimp::Importer importer;
    auto *io = new MemoryFiles();
    io->files["player.md5mesh"] = &mesh;
    io->files["player.md5anim"] = &anim;
    importer.SetIOHandler(io);  // the importer owns it
    const aiScene *first = importer.ReadFile("player.md5mesh", 0);
    if (!first || first->mNumMeshes == 0 || first->mNumAnimations == 0) {
        std::printf("FAILED assimp_import player %s\n",
                    first ? "no mesh or no animation" : importer.GetErrorString());
        return 1;
    }
    std::fprintf(stderr, "assimp: %u meshes, %u vertices, %u bones, %u animations, %u channels, %u keys\n",
                 first->mNumMeshes, first->mMeshes[0]->mNumVertices, first->mMeshes[0]->mNumBones,
                 first->mNumAnimations, first->mAnimations[0]->mNumChannels,
                 first->mAnimations[0]->mChannels[0]->mNumRotationKeys);
    bool failed = false;
    auto r = time_per_op(iterations, [&]() {
        const aiScene *scene = importer.ReadFile("player.md5mesh", 0);
        if (!scene || scene->mNumAnimations == 0) failed = true;
    });
    if (failed) {
        std::printf("FAILED assimp_import player %s\n", importer.GetErrorString());
        return 1;
    }
    std::printf("RESULT assimp_import player %.3f %.3f\n", r.first, r.second);
    return 0;
}
