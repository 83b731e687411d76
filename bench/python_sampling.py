#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sampling 1,000 times of a 64-joint clip from Python in one call, against the same work in C++.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_sampling.py [build/release]

Writes a 64-joint glTF (a root and three 21-joint chains, linear T/R/S keys at 30 per second on
every joint, 2 s), times critter.Model.sample(0, times) with 1,000 times (CPU time per call), runs the Google
Benchmark bench_sample_times on the same file for the C++ cost (its CPU time per iteration), and
prints both and their ratio. Exits 1 when Python costs more than 1.5 times C++.
"""

import base64
import json
import os
import pathlib
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

JOINTS = 64
KEYS = 61  # 2 s at 30 keys per second
LIMIT = 1.5


def write_model(path):
    times = np.linspace(0, 2, KEYS, dtype=np.float32)
    rng = np.random.default_rng(64)
    blobs = [times.tobytes()]
    accessors = [{"bufferView": 0, "componentType": 5126, "count": KEYS, "type": "SCALAR",
                  "min": [0.0], "max": [2.0]}]
    channels, samplers = [], []
    nodes = []
    for j in range(JOINTS):
        nodes.append({"name": f"joint_{j}", "translation": [0.0, 0.1, 0.0], "children": []})
        phase = rng.uniform(0, 2 * np.pi)
        angle = 0.3 * np.sin(2 * np.pi * times / 2 + phase)
        t = np.stack([0.01 * np.sin(times + phase), 0.1 + 0 * times, 0 * times], 1).astype(np.float32)
        r = np.stack([np.sin(angle / 2), 0 * times, 0 * times, np.cos(angle / 2)], 1).astype(np.float32)
        s = (1 + 0.05 * np.stack([np.sin(times + phase)] * 3, 1)).astype(np.float32)
        for path_name, values, kind in (("translation", t, "VEC3"), ("rotation", r, "VEC4"), ("scale", s, "VEC3")):
            blobs.append(values.tobytes())
            accessors.append({"bufferView": len(blobs) - 1, "componentType": 5126, "count": KEYS, "type": kind})
            samplers.append({"input": 0, "output": len(accessors) - 1, "interpolation": "LINEAR"})
            channels.append({"sampler": len(samplers) - 1, "target": {"node": j, "path": path_name}})
    # A root with three 21-joint chains: joint j > 0 hangs from j - 1, or from the root when it
    # starts a chain.
    for j in range(1, JOINTS):
        parent = 0 if (j - 1) % 21 == 0 else j - 1
        nodes[parent]["children"].append(j)
    for n in nodes:
        if not n["children"]:
            del n["children"]
    views, offset, data = [], 0, b""
    for blob in blobs:
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(blob)})
        data += blob
        offset += len(blob)
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
           "buffers": [{"byteLength": len(data),
                        "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
           "bufferViews": views, "accessors": accessors,
           "animations": [{"name": "cycle", "channels": channels, "samplers": samplers}]}
    path.write_text(json.dumps(doc))


def main():
    import critter

    build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build/release")
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "joints64.gltf"
        write_model(path)
        model = critter.load(str(path))
        assert len(model.bones) == JOINTS, len(model.bones)
        times = np.arange(1000, dtype=np.float32) * (model.clips[0].duration / 1000)
        model.sample(0, times)  # warm up
        # CPU time of this thread (sample runs in it, GIL released) averaged over >= 2 s of calls,
        # as Google Benchmark's cpu_time is: both stay fair on a busy machine, where wall time
        # counts the time other processes hold the cores.
        calls, cpu_start, wall_end = 0, time.thread_time(), time.perf_counter() + 2.0
        while time.perf_counter() < wall_end:
            model.sample(0, times)
            calls += 1
        best = (time.thread_time() - cpu_start) / calls
        run = subprocess.run([str(build / "bench" / "bench_sample_times"), "--benchmark_format=json",
                              "--benchmark_min_time=2"],
                             env={**os.environ, "CRITTER_BENCH_MODEL": str(path)},
                             capture_output=True, text=True, check=True)
        results = json.loads(run.stdout)["benchmarks"]
        cpp = results[0]["cpu_time"] * 1e-6  # us -> s
    ratio = best / cpp
    print(f"64 joints, 1000 times: Python {best * 1e3:.3f} ms per call, C++ {cpp * 1e3:.3f} ms, "
          f"ratio {ratio:.2f} (limit {LIMIT})")
    return 0 if ratio <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
