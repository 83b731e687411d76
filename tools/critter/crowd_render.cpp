// SPDX-License-Identifier: MIT
#include "crowd_render.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "command.h"
#include "critter/core/job_pool.h"
#include "critter/creature/crowd.h"
#include "critter/io/image/image_decoder.h"
#include "critter/io/image/image_writer.h"

namespace critter::cli {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Every creature placed on its grid cell, without blob shadows (one draw per shadow would break
// the one-draw-per-part crowd). The spans point into the crowd's instances, so the list is built
// once and submitted every frame.
std::vector<gl::RenderInstance> render_list(const gl::GpuModel& gpu, const creature::Crowd& crowd) {
  std::vector<gl::RenderInstance> list(crowd.size());
  for (std::size_t i = 0; i < crowd.size(); ++i) {
    gl::RenderInstance& r = list[i];
    r.model = &gpu;
    r.world_from_model = crowd.placement(i);
    r.model_transforms = crowd.instance(i).model_transforms();
    r.morph_weights = crowd.instance(i).morph_weights();
    r.cast_shadow = false;
  }
  return list;
}

}  // namespace

int render_crowd(const CrowdRender& r, std::ostream& out, std::ostream& err) {
  Result<Picture> picture = Picture::create(r.width, r.height);
  if (!picture) return report(picture.error(), err);
  gl::Renderer& renderer = *picture->renderer;
  Result<std::unique_ptr<gl::GpuModel>> gpu = renderer.upload(*r.model, io::decode_image);
  if (!gpu) return report(gpu.error(), err);
  creature::CrowdOptions options;
  options.count = static_cast<std::uint32_t>(r.count);
  options.clip = r.clip;
  Result<std::unique_ptr<creature::Crowd>> crowd = creature::Crowd::create(*r.model, options);
  if (!crowd) return report(crowd.error(), err);
  const std::vector<gl::RenderInstance> list = render_list(**gpu, **crowd);
  // Animation and palette packing run on every hardware thread.
  JobPool pool;
  const float aspect = static_cast<float>(r.width) / static_cast<float>(r.height);
  const Aabb bounds = (*crowd)->bounds();
  const gl::Camera camera = frame_to_fill(bounds, aspect, 30.0f, 35.0f, false).camera(aspect);

  // Mean times of a frame, as a game runs it: queue (checks and reservations), then the crowd
  // animated on the pool with each chunk's palettes packed right after it is posed (the
  // matrices still in cache); prepare adds the palette and instance uploads; the draws end with
  // glFinish so the GPU's work (llvmpipe: CPU threads) is counted there.
  double queue = 0.0, animate = 0.0, prepare = 0.0, draw = 0.0;
  const bool gif = r.gif_frames > 0;
  const int frames = gif ? r.gif_frames : std::max(r.frames, 1);
  const float step = gif ? 1.0f / r.fps : 1.0f / 30.0f;
  std::vector<io::RgbaImage> images;
  for (int f = 0; f < frames; ++f) {
    auto t = Clock::now();
    renderer.begin_frame();
    const std::size_t first = renderer.queued();
    if (Status s = renderer.queue(list); !s) return report(s.error(), err);
    queue += ms_since(t);
    t = Clock::now();
    (*crowd)->update(gif && f == 0 ? 0.0f : step, &pool,
                     [&](std::size_t b, std::size_t e) { renderer.pack(first + b, first + e); });
    animate += ms_since(t);
    t = Clock::now();
    if (Status s = picture->clear(camera, r.style, bounds); !s) return report(s.error(), err);
    renderer.prepare(camera);
    prepare += ms_since(t);
    t = Clock::now();
    for (RenderMode mode :
         {RenderMode::kSolid, RenderMode::kAlphaThreshold, RenderMode::kTransparentBeforeWater,
          RenderMode::kTransparentAfterWater})
      renderer.draw(mode);
    glFinish();
    draw += ms_since(t);
    if (gif) images.push_back(picture->capture(r.style.transparent()));
  }
  const gl::FrameStats& stats = renderer.stats();
  const std::size_t parts = (*gpu)->parts().size();
  char line[256];
  std::snprintf(line, sizeof line,
                "crowd: %d creature%s, %zu mesh part%s, %u draw call%s per frame (%u visible, %u "
                "palette joints)\n",
                r.count, r.count == 1 ? "" : "s", parts, parts == 1 ? "" : "s", stats.draw_calls,
                stats.draw_calls == 1 ? "" : "s", stats.visible, stats.palette_joints);
  out << line;
  std::snprintf(line, sizeof line,
                "frame (mean of %d): queue %.2f ms, animate + pack palettes %.2f ms, prepare %.2f "
                "ms (CPU outside the driver %.2f ms), draw + finish %.2f ms\n",
                frames, queue / frames, animate / frames, prepare / frames,
                (queue + animate) / frames, draw / frames);
  out << line;
  if (Status folder = create_output_folder(r.output); !folder) return report(folder.error(), err);
  Status written;
  if (gif) {
    io::GifOptions gif_options;
    gif_options.frame_delay = step;
    gif_options.transparent = r.style.transparent();
    written = io::write_gif(r.output, images, gif_options);
  } else {
    written = io::write_png(r.output, picture->capture(r.style.transparent()));
  }
  if (!written) return report(written.error(), err);
  out << "wrote " << r.output << " (" << r.width << "x" << r.height << ", "
      << (gif ? std::to_string(images.size()) + " frames" : std::string("1 frame")) << ")\n";
  return kExitOk;
}

}  // namespace critter::cli
