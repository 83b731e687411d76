// SPDX-License-Identifier: MIT
// What the parts of the critter Python module share: the Model handle every object keeps alive,
// the translation of critter::Error into the Python exception critter.Error, and the functions
// that register each part on the module.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "critter/anim/pose.h"
#include "critter/asset/model.h"
#include "critter/core/error.h"

namespace critter::python {

namespace py = pybind11;

// A loaded model as Python holds it: the immutable Model (shared with controllers and creatures)
// and its morph weight layout, computed once.
struct ModelHandle {
  std::shared_ptr<const Model> model;
  anim::MorphLayout layout;
  std::vector<std::size_t> vertex_offsets;  // first vertex of each mesh in skin() output; +1 total

  explicit ModelHandle(std::shared_ptr<const Model> m);
};

// Storage of `size` elements left uninitialised for a writer that fills every one (numpy-sized
// outputs, where zeroing first would cost as much as the work). T must be an implicit-lifetime
// type, trivially destructible (floats, Transform).
template <class T>
class UninitBuffer {
 public:
  static_assert(std::is_trivially_destructible_v<T>);
  void allocate(std::size_t n) {
    data_.reset(static_cast<T*>(::operator new(n * sizeof(T))));
    size_ = n;
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const { ::operator delete(p); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

// Poses at one or more times: T local poses (J transforms each, Model.bones order), their
// model-space matrices (row-major 4x4) and morph weights. Keeps the Python Model object alive, so
// numpy views of a Pose stay valid whatever the caller drops.
struct PoseData {
  py::object model_object;  // the critter.Model the pose belongs to
  std::shared_ptr<ModelHandle> model;
  std::string clip;  // the sampled clip's name; empty for a controller's or a creature's pose
  std::vector<float> times;
  UninitBuffer<Transform> locals;  // times.size() * joint count
  UninitBuffer<float> matrices;    // times.size() * joint count * 16, row-major
  UninitBuffer<float> weights;     // times.size() * layout.weight_count()
};

// Raises critter.Error (a Python exception with the attributes code, file, location and rule)
// for `error`. Never returns.
[[noreturn]] void raise_error(const Error& error);

// Returns the value of `result`, or raises critter.Error for its error.
template <class T>
T value_or_raise(Result<T> result) {
  if (!result) raise_error(result.error());
  return std::move(*result);
}
inline void check(const Status& status) {
  if (!status) raise_error(status.error());
}

// A read-only numpy view of `count` elements of `data` shaped `shape` (C order), kept alive by
// `owner`.
py::array readonly_view(py::dtype dtype, std::vector<py::ssize_t> shape,
                        std::vector<py::ssize_t> strides, const void* data, py::handle owner);

// The registration of each part.
void register_errors(py::module_& m);
void register_model(py::module_& m);
void register_controller(py::module_& m);
void register_commands(py::module_& m);

}  // namespace critter::python
