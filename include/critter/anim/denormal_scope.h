// SPDX-License-Identifier: MIT
// DenormalScope: one switch of the floating-point mode for a whole batch of animation jobs.
//
// Every animation job (SamplingJob, CompactSamplingJob, BlendingJob, LocalToModelJob) takes and
// gives denormal floats (below 1.2e-38 in magnitude) as zero while it runs, so that the tiny
// components exported clips hold cost no microcode assists, and puts the thread's mode back as it
// found it when it returns (on x86: the SSE control register's flush-to-zero and
// denormals-are-zero bits). Reading and writing that register costs about as much as sampling a
// few joints, once per job. While a DenormalScope lives on a thread, the mode is set for the
// scope instead and the jobs run on that thread skip their own switch: hold one around a frame's
// animation pass (many characters, many jobs) and the switch is paid once. creature::Crowd::update
// holds one per chunk of creatures; a lone Player or Controller update does not (it runs a few
// jobs or none, and a scope of its own measured slower). The jobs give the same bits inside and
// outside a scope.
//
// Contract: make and destroy it on the same thread, innermost first (it is a stack object; it can
// be neither copied nor moved); scopes nest. While one lives, the code it encloses must not clear
// those two bits (the jobs trust the scope and would then run without them, slower on denormals
// and different below 1.2e-38). Float code of the caller inside the scope also sees denormals as
// zero: a denormal compares equal to zero there, so keep code whose branches test tiny values
// (conditions on user parameters, say) outside. On its destruction the outermost scope puts the
// register back as it found it (as each job does: exception flags raised inside are cleared with
// it). Where the CPU has no such mode (no SSE), it does nothing.
#pragma once

namespace critter::anim {

class DenormalScope {
 public:
  DenormalScope();
  ~DenormalScope();
  DenormalScope(const DenormalScope&) = delete;
  DenormalScope& operator=(const DenormalScope&) = delete;

  // True when a scope lives on the calling thread.
  static bool active();

 private:
  unsigned saved_ = 0;  // the mode the outermost scope found
  bool outermost_;      // only the outermost scope touches the register
};

}  // namespace critter::anim
