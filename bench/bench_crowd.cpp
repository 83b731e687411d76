// SPDX-License-Identifier: MIT
// Skinned crowds (rendering.md §11): N creatures of a 64-joint model, each with its own palette,
// animated on a JobPool and drawn by one Renderer on a headless EGL context.
//
// BM_CrowdFrame is the frame target: wall time of one whole CPU frame (animation: sampling and
// local-to-model; palettes packed right after each creature is posed, into the renderer's
// palette memory; culling, sorting and the GL uploads of prepare()) at 1,000, 10,000 and 50,000
// creatures on 1 and 2 threads; the draws are left out (on a software rasteriser they measure
// the rasteriser). Every benchmark runs warm: untimed frames first (the first frames grow the
// staging and the GPU buffers), then a warm-up that is not reported, then 5 repetitions of
// which only the aggregates are printed; read the medians. The counters split a frame into
// queue_ms (begin_frame, which may wait on a palette buffer's fence, then queue()'s checks and
// reservations), animate_pack_ms and prepare_ms (means over the timed frames);
// all_threads_cpu_ms is the CPU time per frame of every thread of the process, the GL driver's
// included (the work, whatever else the machine runs).
//
// BM_CrowdFrameSubmit is the same frame with animation and palette packing as two passes
// (Crowd::update, then Renderer::submit) on each palette path, to compare the paths;
// BM_CrowdUpdate, BM_CrowdSubmit and BM_CrowdPrepareDraw time the parts alone.
#include <benchmark/benchmark.h>
#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "critter/asset/model.h"
#include "critter/core/job_pool.h"
#include "critter/creature/crowd.h"
#include "critter/gl/context.h"
#include "critter/gl/render_target.h"
#include "critter/gl/renderer.h"
#include "critter/io/image/image_decoder.h"

namespace {

using namespace critter;

constexpr int kLimbs = 7;
constexpr int kLimbJoints = 9;
constexpr int kJoints = 1 + kLimbs * kLimbJoints;  // 64
static_assert(kJoints == 64);

// A star-shaped creature: a root and seven limbs of nine joints, one box (24 vertices) per joint,
// the half of each box nearer the parent weighted half to the parent. A 1 s looping clip bends
// every limb joint about Z and back.
RawModel make_star_creature() {
  RawModel raw;
  raw.name = "star64";
  raw.format = "code";
  raw.skeleton.joints.resize(kJoints);
  raw.skeleton.joints[0].name = "root";
  raw.skeleton.joints[0].rest.translation = vec3(0.0f, 0.6f, 0.0f);
  for (int l = 0; l < kLimbs; ++l) {
    for (int j = 0; j < kLimbJoints; ++j) {
      const int index = 1 + l * kLimbJoints + j;
      RawJoint& joint = raw.skeleton.joints[static_cast<std::size_t>(index)];
      joint.name = "limb" + std::to_string(l) + "_" + std::to_string(j);
      joint.parent = j == 0 ? 0 : index - 1;
      if (j == 0) {
        const float a = 2.0f * 3.14159265f * static_cast<float>(l) / kLimbs;
        joint.rest.rotation = glm::angleAxis(a, vec3(0, 1, 0));
      }
      joint.rest.translation = vec3(0.0f, 0.0f, j == 0 ? 0.1f : 0.06f);
    }
  }
  // Rest model transforms, parents before children in raw order.
  std::vector<mat4> rest(kJoints);
  for (int i = 0; i < kJoints; ++i) {
    const RawJoint& joint = raw.skeleton.joints[static_cast<std::size_t>(i)];
    const mat4 local = joint.rest.to_matrix();
    rest[static_cast<std::size_t>(i)] =
        joint.parent < 0 ? local : rest[static_cast<std::size_t>(joint.parent)] * local;
  }

  Skin skin;
  skin.name = "star64";
  for (int i = 0; i < kJoints; ++i) {
    skin.joints.push_back(static_cast<std::int16_t>(i));
    skin.inverse_bind.push_back(glm::inverse(rest[static_cast<std::size_t>(i)]));
  }
  raw.skins.push_back(std::move(skin));

  Mesh mesh;
  mesh.name = "star64";
  mesh.skin = 0;
  MeshPart part;
  static const vec3 kNormals[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  for (int i = 0; i < kJoints; ++i) {
    const int parent = raw.skeleton.joints[static_cast<std::size_t>(i)].parent;
    const mat4& m = rest[static_cast<std::size_t>(i)];
    for (const vec3& n : kNormals) {
      // Two axes spanning the face.
      const vec3 u = std::abs(n.x) > 0.5f ? vec3(0, 1, 0) : vec3(1, 0, 0);
      const vec3 v = glm::cross(n, u);
      const auto base = static_cast<std::uint32_t>(part.streams.positions.size());
      for (int k = 0; k < 4; ++k) {
        const float su = (k == 1 || k == 2) ? 1.0f : -1.0f;
        const float sv = (k >= 2) ? 1.0f : -1.0f;
        const vec3 local = 0.025f * (n + su * u + sv * v) + vec3(0.0f, 0.0f, -0.03f);
        part.streams.positions.push_back(vec3(m * vec4(local, 1.0f)));
        part.streams.normals.push_back(glm::normalize(vec3(m * vec4(n, 0.0f))));
        part.streams.uv0.push_back(vec2(0.5f * (su + 1.0f), 0.5f * (sv + 1.0f)));
        const bool near_parent = local.z < -0.03f && parent >= 0;
        part.streams.joints.push_back(glm::u16vec4(i, near_parent ? parent : 0, 0, 0));
        part.streams.weights.push_back(near_parent ? vec4(0.5f, 0.5f, 0, 0) : vec4(1, 0, 0, 0));
      }
      for (std::uint32_t t : {0u, 1u, 2u, 0u, 2u, 3u}) part.indices.push_back(base + t);
    }
  }
  mesh.parts.push_back(std::move(part));
  raw.meshes.push_back(std::move(mesh));

  RawClip clip;
  clip.name = "wave";
  for (int i = 1; i < kJoints; ++i) {
    RawTrack track;
    track.target = TrackTarget::kRotation;
    track.index = i;
    track.components = 4;
    track.times = {0.0f, 0.5f, 1.0f};
    const quat bent = glm::angleAxis(0.3f, vec3(1, 0, 0));
    for (const quat& q : {quat(1, 0, 0, 0), bent, quat(1, 0, 0, 0)}) {
      const quat r = raw.skeleton.joints[static_cast<std::size_t>(i)].rest.rotation * q;
      track.values.insert(track.values.end(), {r.x, r.y, r.z, r.w});
    }
    clip.tracks.push_back(std::move(track));
  }
  raw.clips.push_back(std::move(clip));
  return raw;
}

// Everything a crowd benchmark needs, built once per process (GL context, renderers, model).
struct Scene {
  std::unique_ptr<gl::HeadlessContext> context;
  // One renderer per palette path, indexed by PaletteUpload (kAuto's slot is empty); null where
  // the context lacks the path.
  std::unique_ptr<gl::Renderer> renderers[4];
  std::unique_ptr<Model> model;
  std::unique_ptr<Model> compact_model;  // the same with compact clips (--compact's default)
  std::unique_ptr<gl::GpuModel> gpu;
  gl::RenderTarget target;

  gl::Renderer* renderer(gl::PaletteUpload path) {
    return renderers[static_cast<std::size_t>(path)].get();
  }
  // The persistent path where the context has it, else the 2D texture (always there).
  gl::Renderer* fastest_renderer() {
    gl::Renderer* r = renderer(gl::PaletteUpload::kPersistentBuffer);
    return r != nullptr ? r : renderer(gl::PaletteUpload::kTexture);
  }
};

Scene* scene() {
  static std::unique_ptr<Scene> s = [] {
    auto out = std::make_unique<Scene>();
    auto context = gl::HeadlessContext::create();
    if (!context) {
      std::fprintf(stderr, "bench_crowd: %s\n", context.error().to_string().c_str());
      return std::unique_ptr<Scene>();
    }
    out->context = std::move(*context);
    for (gl::PaletteUpload path : {gl::PaletteUpload::kTexture, gl::PaletteUpload::kBufferTexture,
                                   gl::PaletteUpload::kPersistentBuffer}) {
      gl::RendererOptions options;
      options.palette_upload = path;
      auto renderer = gl::Renderer::create(options);
      if (renderer) out->renderers[static_cast<std::size_t>(path)] = std::move(*renderer);
    }
    auto model = build_model(make_star_creature());
    if (!model || !out->renderer(gl::PaletteUpload::kTexture)) {
      std::fprintf(stderr, "bench_crowd: %s\n",
                   model ? "no renderer" : model.error().to_string().c_str());
      return std::unique_ptr<Scene>();
    }
    out->model = std::make_unique<Model>(std::move(*model));
    auto compact = with_compact_clips(*build_model(make_star_creature()), 1e-4f);
    if (!compact) {
      std::fprintf(stderr, "bench_crowd: %s\n", compact.error().to_string().c_str());
      return std::unique_ptr<Scene>();
    }
    out->compact_model = std::make_unique<Model>(std::move(*compact));
    auto gpu = gl::GpuModel::create(*out->model, io::decode_image);
    auto target = gl::RenderTarget::create(256, 256);
    if (!gpu || !target) return std::unique_ptr<Scene>();
    out->gpu = std::move(*gpu);
    out->target = std::move(*target);
    return out;
  }();
  return s.get();
}

std::unique_ptr<creature::Crowd> make_crowd(Scene& s, std::uint32_t n, bool compact = false) {
  creature::CrowdOptions o;
  o.count = n;
  auto crowd = creature::Crowd::create(compact ? *s.compact_model : *s.model, o);
  return crowd ? std::move(*crowd) : nullptr;
}

// Every creature on its grid cell, without shadows (one instanced draw per mesh part). The
// spans point into the crowd's instances, so the list is built once and submitted every frame.
std::vector<gl::RenderInstance> render_list(const Scene& s, const creature::Crowd& crowd) {
  std::vector<gl::RenderInstance> list(crowd.size());
  for (std::size_t i = 0; i < crowd.size(); ++i) {
    gl::RenderInstance& r = list[i];
    r.model = s.gpu.get();
    r.world_from_model = crowd.placement(i);
    r.model_transforms = crowd.instance(i).model_transforms();
    r.morph_weights = crowd.instance(i).morph_weights();
    r.cast_shadow = false;
  }
  return list;
}

// One pool per thread count, alive for the whole run (threads start once, not per benchmark).
JobPool& pool(unsigned threads) {
  static std::unique_ptr<JobPool> pools[3];
  if (!pools[threads]) pools[threads] = std::make_unique<JobPool>(threads);
  return *pools[threads];
}

gl::Camera crowd_camera(const creature::Crowd& crowd) {
  return gl::frame_bounds(crowd.bounds(), 1.0f, 20.0f, 50.0f).camera(1.0f);
}

constexpr float kDt = 1.0f / 60.0f;

// CPU seconds of every thread of the process: a frame's work on all cores, whatever the wall time
// on a machine shared with other programs.
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
// Frames run before timing starts: more than the persistent path's three buffers take turns, so
// each has grown to size.
constexpr int kUntimedFrames = 4;

// The frame as a game runs it: the crowd animated on the pool, each chunk's palettes packed right
// after the chunk is posed, then prepare(). Returns false when the renderer refuses the crowd.
struct FusedFrame {
  gl::Renderer& renderer;
  creature::Crowd& crowd;
  JobPool& jobs;
  std::span<const gl::RenderInstance> list;
  gl::Camera camera;
  double seconds[3] = {0.0, 0.0, 0.0};  // queue, animate + pack, prepare

  bool run() {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    renderer.begin_frame();
    const std::size_t first = renderer.queued();
    if (!renderer.queue(list)) return false;
    const auto t1 = Clock::now();
    crowd.update(kDt, &jobs, [this, first](std::size_t b, std::size_t e) {
      renderer.pack(first + b, first + e);
    });
    const auto t2 = Clock::now();
    renderer.prepare(camera);
    const auto t3 = Clock::now();
    seconds[0] += std::chrono::duration<double>(t1 - t0).count();
    seconds[1] += std::chrono::duration<double>(t2 - t1).count();
    seconds[2] += std::chrono::duration<double>(t3 - t2).count();
    return true;
  }
};

void BM_CrowdFrame(benchmark::State& state) {
  Scene* s = scene();
  if (!s) return state.SkipWithError("no OpenGL context");
  gl::Renderer* renderer = s->fastest_renderer();
  auto crowd = make_crowd(*s, static_cast<std::uint32_t>(state.range(0)));
  const std::vector<gl::RenderInstance> list = render_list(*s, *crowd);
  FusedFrame frame{*renderer, *crowd, pool(static_cast<unsigned>(state.range(1))), list,
                   crowd_camera(*crowd)};
  for (int f = 0; f < kUntimedFrames; ++f) {
    if (!frame.run()) return state.SkipWithError("queue refused");
  }
  std::fill(std::begin(frame.seconds), std::end(frame.seconds), 0.0);
  const double cpu0 = process_cpu_seconds();
  for (auto _ : state) {
    if (!frame.run()) return state.SkipWithError("queue refused");
  }
  const double cpu = process_cpu_seconds() - cpu0;
  glFinish();
  state.SetItemsProcessed(state.iterations() * state.range(0));
  const double frames = static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
  state.counters["queue_ms"] = 1e3 * frame.seconds[0] / frames;
  state.counters["animate_pack_ms"] = 1e3 * frame.seconds[1] / frames;
  state.counters["prepare_ms"] = 1e3 * frame.seconds[2] / frames;
  state.counters["all_threads_cpu_ms"] = 1e3 * cpu / frames;
  state.SetLabel(renderer->palette_upload() == gl::PaletteUpload::kPersistentBuffer
                     ? "persistent buffer"
                     : "texture");
}

// The frame in two passes: Crowd::update on the pool, then Renderer::submit packing the palettes
// on the pool, then prepare(), on palette path range(2) (a PaletteUpload).
void BM_CrowdFrameSubmit(benchmark::State& state) {
  Scene* s = scene();
  if (!s) return state.SkipWithError("no OpenGL context");
  const auto path = static_cast<gl::PaletteUpload>(state.range(2));
  gl::Renderer* renderer = s->renderer(path);
  if (!renderer) return state.SkipWithError("the context lacks this palette path");
  auto crowd = make_crowd(*s, static_cast<std::uint32_t>(state.range(0)));
  JobPool& jobs = pool(static_cast<unsigned>(state.range(1)));
  const std::vector<gl::RenderInstance> list = render_list(*s, *crowd);
  const gl::Camera camera = crowd_camera(*crowd);
  using Clock = std::chrono::steady_clock;
  double seconds[3] = {0.0, 0.0, 0.0};
  for (int f = -kUntimedFrames; f < 0 || state.KeepRunning(); ++f) {
    const auto t0 = Clock::now();
    crowd->update(kDt, &jobs);
    const auto t1 = Clock::now();
    renderer->begin_frame();
    if (!renderer->submit(list, &jobs)) return state.SkipWithError("submit refused");
    const auto t2 = Clock::now();
    renderer->prepare(camera);
    const auto t3 = Clock::now();
    if (f < 0) continue;
    seconds[0] += std::chrono::duration<double>(t1 - t0).count();
    seconds[1] += std::chrono::duration<double>(t2 - t1).count();
    seconds[2] += std::chrono::duration<double>(t3 - t2).count();
  }
  glFinish();
  state.SetItemsProcessed(state.iterations() * state.range(0));
  const double frames = static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
  state.counters["animate_ms"] = 1e3 * seconds[0] / frames;
  state.counters["submit_ms"] = 1e3 * seconds[1] / frames;
  state.counters["prepare_ms"] = 1e3 * seconds[2] / frames;
}

// Animation of every creature on one thread: sampling, local-to-model. Second argument: 1 plays
// the clip's compact form (the model loaded with --compact), 0 its exact keys.
void BM_CrowdUpdate(benchmark::State& state) {
  Scene* s = scene();
  if (!s) return state.SkipWithError("no OpenGL context");
  auto crowd = make_crowd(*s, static_cast<std::uint32_t>(state.range(0)), state.range(1) == 1);
  for (int f = 0; f < kUntimedFrames; ++f) crowd->update(kDt);
  for (auto _ : state) crowd->update(kDt);
  state.SetItemsProcessed(state.iterations() * state.range(0));  // creatures per second
}

// Queueing and packing every creature's palette on one thread (Renderer::submit on the
// persistent path where the context has it).
void BM_CrowdSubmit(benchmark::State& state) {
  Scene* s = scene();
  if (!s) return state.SkipWithError("no OpenGL context");
  gl::Renderer* renderer = s->fastest_renderer();
  auto crowd = make_crowd(*s, static_cast<std::uint32_t>(state.range(0)));
  const std::vector<gl::RenderInstance> list = render_list(*s, *crowd);
  const gl::Camera camera = crowd_camera(*crowd);
  for (int f = 0; f < kUntimedFrames; ++f) {
    renderer->begin_frame();
    if (!renderer->submit(list)) return state.SkipWithError("submit refused");
    renderer->prepare(camera);
  }
  for (auto _ : state) {
    renderer->begin_frame();
    if (!renderer->submit(list)) return state.SkipWithError("submit refused");
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// Culling, sorting and the uploads of palettes and instance records (prepare), then the draws
// of the opaque passes; glFinish so the GPU (llvmpipe: the CPU) work is inside the timing.
void BM_CrowdPrepareDraw(benchmark::State& state) {
  Scene* s = scene();
  if (!s) return state.SkipWithError("no OpenGL context");
  gl::Renderer* renderer = s->fastest_renderer();
  auto crowd = make_crowd(*s, static_cast<std::uint32_t>(state.range(0)));
  const std::vector<gl::RenderInstance> list = render_list(*s, *crowd);
  const gl::Camera camera = crowd_camera(*crowd);
  s->target.bind();
  double prepare_seconds = 0.0;
  for (int f = -kUntimedFrames; f < 0 || state.KeepRunning(); ++f) {
    renderer->begin_frame();
    if (!renderer->submit(list)) return state.SkipWithError("submit refused");
    const auto t0 = std::chrono::steady_clock::now();
    renderer->prepare(camera);
    if (f >= 0) {
      prepare_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    renderer->draw(RenderMode::kSolid);
    renderer->draw(RenderMode::kAlphaThreshold);
    glFinish();
  }
  state.counters["draw_calls"] = renderer->stats().draw_calls;
  state.counters["visible"] = renderer->stats().visible;
  state.counters["mesh_parts"] = static_cast<double>(s->gpu->parts().size());
  state.counters["prepare_ms"] =
      1e3 * prepare_seconds / static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
}

}  // namespace

// Wall time in milliseconds, warmed up, 5 repetitions reported as aggregates (read the medians).
void warm_repetitions(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->MinWarmUpTime(0.3)->Repetitions(5)->ReportAggregatesOnly(true)->Unit(
      benchmark::kMillisecond);
}

BENCHMARK(BM_CrowdFrame)
    ->ArgsProduct({{1000, 10000, 50000}, {1, 2}})
    ->ArgNames({"creatures", "threads"})
    ->Apply(warm_repetitions);
BENCHMARK(BM_CrowdFrameSubmit)
    ->ArgsProduct({{10000},
                   {1, 2},
                   {static_cast<int>(gl::PaletteUpload::kPersistentBuffer),
                    static_cast<int>(gl::PaletteUpload::kBufferTexture),
                    static_cast<int>(gl::PaletteUpload::kTexture)}})
    ->ArgNames({"creatures", "threads", "path"})
    ->Apply(warm_repetitions);
BENCHMARK(BM_CrowdUpdate)
    ->ArgNames({"creatures", "compact"})
    ->ArgsProduct({{1000, 10000}, {0, 1}})
    ->Apply(warm_repetitions);
BENCHMARK(BM_CrowdSubmit)->Arg(1000)->Arg(10000)->Apply(warm_repetitions);
// A software rasteriser takes seconds for 10,000 creatures: a few frames are enough.
BENCHMARK(BM_CrowdPrepareDraw)
    ->Arg(1000)
    ->Arg(10000)
    ->UseRealTime()
    ->Iterations(3)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
