// SPDX-License-Identifier: MIT
// The frame of docs/jobs.md as written there (two clips sampled, a crossfade, local-to-model, all
// in structure-of-arrays form) gives the model matrices of the same frame in Transform form, bit
// for bit, on a real model and on the synthetic character.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "critter/anim/blending_job.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/pose.h"
#include "critter/anim/sampling_job.h"
#include "critter/asset/synthetic_character.h"
#include "critter/io/load.h"

namespace critter::anim {
namespace {

void report(const Error& e) {
  ADD_FAILURE() << e.to_string();
}

// docs/jobs.md's example, times t_walk and t_run.
std::vector<mat4> soa_frame(const Model& model, float t_walk, float t_run) {
  const std::size_t joints = model.skeleton().joint_count();
  std::vector<SoaTransform> rest(soa_blocks(joints));
  if (auto ok = to_soa(model.skeleton().rest_pose(), rest); !ok) report(ok.error());
  SamplingContext walk_ctx, run_ctx;
  std::vector<SoaTransform> walk(rest.size()), run(rest.size()), blended(rest.size());
  std::vector<mat4> model_matrices(joints);
  const MorphLayout layout = MorphLayout::of(model);
  std::vector<float> w_walk(layout.defaults), w_run(layout.defaults), w_out(layout.defaults);

  SamplingJob sample;
  sample.clip = &model.clips()[0];
  sample.time = t_walk;
  sample.context = &walk_ctx;
  sample.soa_rest = rest;
  sample.soa_output = walk;
  sample.soa_joints = joints;
  sample.default_weights = layout.defaults;
  sample.weight_offsets = layout.offsets;
  sample.output_weights = w_walk;
  sample.output_untouched = true;  // only these jobs write walk and run (see below)
  if (auto ok = sample.run(); !ok) report(ok.error());
  sample.clip = &model.clips()[1];
  sample.time = t_run;
  sample.context = &run_ctx;
  sample.soa_output = run;
  sample.output_weights = w_run;
  if (auto ok = sample.run(); !ok) report(ok.error());

  BlendingLayer layers[2];
  layers[0].soa_pose = walk;
  layers[0].weight = 1.0f;
  layers[0].weights = w_walk;
  layers[1].soa_pose = run;
  layers[1].weight = 0.3f;
  layers[1].weights = w_run;
  BlendingJob blend;
  blend.layers = layers;
  blend.soa_rest = rest;
  blend.soa_output = blended;
  blend.soa_joints = joints;
  blend.default_weights = layout.defaults;
  blend.output_weights = w_out;
  if (auto ok = blend.run(); !ok) report(ok.error());

  LocalToModelJob ltm;
  ltm.skeleton = &model.skeleton();
  ltm.soa_input = blended;
  ltm.output = model_matrices;
  if (auto ok = ltm.run(); !ok) report(ok.error());
  return model_matrices;
}

// The same frame with Transform arrays.
std::vector<mat4> aos_frame(const Model& model, float t_walk, float t_run) {
  const auto rest = model.skeleton().rest_pose();
  SamplingContext walk_ctx, run_ctx;
  std::vector<Transform> walk(rest.size()), run(rest.size()), blended(rest.size());
  std::vector<mat4> model_matrices(rest.size());
  const MorphLayout layout = MorphLayout::of(model);
  std::vector<float> w_walk(layout.defaults), w_run(layout.defaults), w_out(layout.defaults);
  const auto sample = [&](const Clip& clip, float t, SamplingContext& ctx,
                          std::vector<Transform>& out, std::vector<float>& w) {
    SamplingJob job;
    job.clip = &clip;
    job.time = t;
    job.context = &ctx;
    job.rest = rest;
    job.output = out;
    job.default_weights = layout.defaults;
    job.weight_offsets = layout.offsets;
    job.output_weights = w;
    EXPECT_TRUE(job.run());
  };
  sample(model.clips()[0], t_walk, walk_ctx, walk, w_walk);
  sample(model.clips()[1], t_run, run_ctx, run, w_run);
  BlendingLayer layers[2];
  layers[0].pose = walk;
  layers[0].weight = 1.0f;
  layers[1].pose = run;
  layers[1].weight = 0.3f;
  BlendingJob blend;
  blend.layers = layers;
  blend.rest = rest;
  blend.output = blended;
  EXPECT_TRUE(blend.run());
  LocalToModelJob ltm;
  ltm.skeleton = &model.skeleton();
  ltm.input = blended;
  ltm.output = model_matrices;
  EXPECT_TRUE(ltm.run());
  return model_matrices;
}

TEST(SoaPipeline, TheDocumentedFrameEqualsTheTransformFrame) {
  std::vector<Model> models;
  models.push_back(*build_model(make_synthetic_character()));
  auto wizard = io::load(std::string(CRITTER_SHARED_MODELS) + "/Wizard/Wizard.glb");
  ASSERT_TRUE(wizard) << wizard.error().to_string();
  models.push_back(std::move(*wizard));
  for (const Model& model : models) {
    ASSERT_GE(model.clips().size(), 2u);
    for (const float t : {0.0f, 0.13f, 0.61f, 1.7f}) {
      const std::vector<mat4> got = soa_frame(model, t, 1.3f * t);
      const std::vector<mat4> want = aos_frame(model, t, 1.3f * t);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t j = 0; j < got.size(); ++j)
        ASSERT_EQ(std::memcmp(&got[j], &want[j], sizeof(mat4)), 0)
            << model.name() << " t " << t << " joint " << j;
    }
  }
}

}  // namespace
}  // namespace critter::anim
