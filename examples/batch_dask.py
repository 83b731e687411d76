#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Convert (or render contact sheets of) every model under a folder with dask.distributed.

    batch_dask.py INPUT_DIR --out OUT_DIR [--format glb|gltf|obj] [--scheduler ADDR] [--sheets]

One task per model file, each stateless: it reads its file and writes its own output (the folder
layout under INPUT_DIR is kept under OUT_DIR). Without --scheduler the tasks run on a
LocalCluster of --workers processes; with --scheduler tcp://host:8786 on any running Dask
cluster, whose workers must have the critter package installed and see both folders at the same
paths (a shared file system). Results and failures are gathered into one report on stdout; a
failure names its file, the location in it and the rule it broke, and never stops the batch.
Exit status: 0 when every file succeeded, 1 when any failed, 2 for bad arguments.
"""

import argparse
import logging
import os
import pathlib
import sys
import time

MODEL_SUFFIXES = {".gltf", ".glb", ".dae", ".b3d", ".obj", ".fbx", ".model"}


def process_file(src, dst, fmt, sheets):
    """One task: convert `src` to `dst` (or render its contact sheet). Runs on a worker."""
    import critter  # imported where the task runs

    start = time.perf_counter()
    try:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if sheets:
            critter.render(src, dst, sheet=16, size="160x120")
        else:
            critter.convert(src, dst, format=fmt)
        return {"file": src, "ok": True, "output": dst, "seconds": time.perf_counter() - start}
    except critter.Error as e:
        return {"file": src, "ok": False, "error": str(e)}
    except Exception as e:  # anything else still fails this file only, named by it
        return {"file": src, "ok": False, "error": f"{src}: {type(e).__name__}: {e}"}


def find_models(root):
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in MODEL_SUFFIXES)


def output_path(src, root, out, fmt, sheets):
    relative = src.relative_to(root)
    suffix = ".png" if sheets else "." + fmt
    return out / relative.parent / (relative.stem + suffix)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input_dir", type=pathlib.Path, help="folder searched for model files")
    parser.add_argument("--out", required=True, type=pathlib.Path, help="output folder")
    parser.add_argument("--format", choices=["glb", "gltf", "obj"], default="glb",
                        help="output format (default glb)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    parser.add_argument("--sheets", action="store_true",
                        help="render a 16-frame contact sheet (PNG) of each model instead")
    parser.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1),
                        help="LocalCluster worker processes (default: up to 4)")
    args = parser.parse_args(argv)
    if not args.input_dir.is_dir():
        parser.error(f"{args.input_dir} is not a folder")

    from dask.distributed import Client, LocalCluster, as_completed

    root = args.input_dir.resolve()
    out = args.out.resolve()
    files = find_models(root)
    start = time.perf_counter()
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
    try:
        workers = len(client.scheduler_info()["workers"])
        futures = {}
        for src in files:
            dst = output_path(src, root, out, args.format, args.sheets)
            future = client.submit(process_file, str(src), str(dst), args.format, args.sheets,
                                   pure=False, key=f"critter-{src.relative_to(root)}")
            futures[future] = str(src)
        results = []
        for future in as_completed(futures):
            if future.status == "error":  # the worker itself failed (crash, lost worker)
                exc = future.exception()
                results.append({"file": futures[future], "ok": False,
                                "error": f"{futures[future]}: task failed: {type(exc).__name__}: {exc}"})
            else:
                results.append(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    elapsed = time.perf_counter() - start
    results.sort(key=lambda r: r["file"])
    ok = [r for r in results if r["ok"]]
    failed = [r for r in results if not r["ok"]]
    what = "rendered" if args.sheets else "converted"
    for r in ok:
        print(f"ok      {os.path.relpath(r['file'], root)} -> {os.path.relpath(r['output'], out)} "
              f"({r['seconds']:.2f} s)")
    for r in failed:
        print(f"FAILED  {r['error']}")
    print(f"{len(ok)} {what}, {len(failed)} failed, {len(files)} files in {elapsed:.1f} s "
          f"on {workers} workers")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
