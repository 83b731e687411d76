#include "critter/io/controller_loader.h"

#include <utility>

#include "critter/io/animation_config.h"
#include "critter/io/animation_config_bind.h"
#include "critter/io/animation_config_runtime.h"

namespace critter::io {

Result<LoadedController> load_controller(std::string_view config_path,
                                         std::shared_ptr<const Model> model,
                                         const ControllerLoadOptions& options, Diagnostics* diag) {
  if (!model) {
    return fail(Error::at(ErrorCode::kUsage, std::string(config_path), "",
                          "load_controller needs a model"));
  }
  AnimationConfigOptions config_options;
  config_options.asset_roots = options.asset_roots;
  auto config = load_animation_config(config_path, config_options, diag);
  if (!config) return fail(std::move(config.error()));

  BindOptions bind_options;
  bind_options.asset_roots = options.asset_roots;
  auto bound = bind_animation_config(*config, *model, bind_options, diag);
  if (!bound) return fail(std::move(bound.error()));

  auto desc = make_controller_desc(*config, *bound, *model);
  if (!desc) return fail(std::move(desc.error()));

  auto program = anim::ControllerProgram::compile(*model, std::move(*desc));
  if (!program) return fail(std::move(program.error()));
  return LoadedController{std::move(model), std::move(*program)};
}

}  // namespace critter::io
