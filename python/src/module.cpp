// SPDX-License-Identifier: MIT
// critter._critter: the extension module behind the critter Python package (python/critter).
#include "bindings.h"

namespace critter::python {
namespace {

// The exception type, owned by the module object (m.attr("Error")) for the interpreter's life;
// a plain handle so that nothing is released after the interpreter is gone.
py::handle& error_type() {
  static py::handle type;
  return type;
}

}  // namespace

void raise_error(const Error& error) {
  py::object exc = py::reinterpret_borrow<py::object>(error_type())(error.to_string());
  exc.attr("code") = std::string(to_string(error.code));
  exc.attr("file") = error.path;
  exc.attr("location") = error.location;
  exc.attr("rule") = error.message;
  PyErr_SetObject(error_type().ptr(), exc.ptr());
  throw py::error_already_set();
}

py::array readonly_view(py::dtype dtype, std::vector<py::ssize_t> shape,
                        std::vector<py::ssize_t> strides, const void* data, py::handle owner) {
  py::array a(std::move(dtype), std::move(shape), std::move(strides), data, owner);
  a.attr("flags").attr("writeable") = false;
  return a;
}

void register_errors(py::module_& m) {
  // Created here rather than with py::exception so that it takes attributes and a docstring.
  py::object type = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "critter.Error",
      "A located failure: `file` (the file or asset), `location` (byte offset, JSON pointer or "
      "element), `rule` (which rule failed) and `code` (io, parse, invalid, out_of_range, "
      "unsupported, limit or usage). str() gives 'file:location: rule'.",
      PyExc_Exception, nullptr));
  m.attr("Error") = type;
  error_type() = type.release();
}

}  // namespace critter::python

PYBIND11_MODULE(_critter, m) {
  m.doc() = "critter: load, pose, skin, convert and render rigged creature models.";
  // Every docstring starts with its own signature, in Python's terms (Model, Pose, ...).
  pybind11::options options;
  options.disable_function_signatures();
  critter::python::register_errors(m);
  critter::python::register_model(m);
  critter::python::register_controller(m);
  critter::python::register_commands(m);
}
