#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the libFuzzer targets of a fuzz build (make fuzz):
#   run_fuzz.sh BUILD_DIR SECONDS [TARGET...]      (default: every target)
# Each target starts from its corpus under BUILD_DIR/corpus/<target> (kept between runs) and the
# seeds make_seeds writes to BUILD_DIR/seeds/<target>, with its dictionary, and runs for SECONDS.
# A crash, sanitizer report, leak, timeout (10 s per input) or out-of-memory (2 GiB) fails the run;
# the input that caused it is kept under BUILD_DIR/artifacts/<target>/ and its path printed.
# When the Assimp target stops on a failure, the input is replayed: one whose stack reaches
# libassimp before any critter frame is Assimp's own (a known limit, see the README), kept as
# artifacts/assimp/assimp-*, and the target goes on for the rest of its time; any other fails.
# Figures per target (executions, exec/s, coverage, features) go to BUILD_DIR/fuzz-summary.txt.
# FUZZ_NICE (default 0) runs the targets at that niceness. FUZZ_SEED (default: libFuzzer picks
# one) fixes the mutation sequence. FUZZ_RUNS (default: none) makes each target run a fixed number
# of inputs instead of SECONDS: one number for every target, or TARGET=N words with an optional
# bare number for the others ("2000 expression=90000"). A time-limited run gets as far as the
# machine lets it; with FUZZ_SEED and FUZZ_RUNS from the same corpus every run tries the same
# number of inputs along nearly the same path (CI's): the targets run without address-space
# randomisation where setarch allows it, so code whose path depends on where the heap lies takes
# the same one, and a run still drifts after some thousands of inputs. SECONDS then only caps a
# target, at four times SECONDS, on a machine far slower than the counts were sized for; such a
# target stops early and its result says "capped".
set -uo pipefail
build=$1 seconds=$2
shift 2
src="$(cd "$(dirname "$0")" && pwd)"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(gltf gltf_roundtrip insomniac config expression assimp image crit)
declare -A dict=([gltf]=gltf [gltf_roundtrip]=gltf [insomniac]=insomniac [config]=config
                 [expression]=expression [assimp]=assimp [image]=image [crit]=crit)
declare -A max_len=([gltf]=262144 [gltf_roundtrip]=262144 [insomniac]=65536 [config]=16384
                    [expression]=2048 [assimp]=65536 [image]=65536 [crit]=262144)

# The inputs FUZZ_RUNS gives target $1, or nothing (a time-limited run).
runs_for() {
  local word n=
  for word in ${FUZZ_RUNS:-}; do
    case $word in
      "$1"=*) n=${word#*=}; break ;;
      *=*) ;;
      *) n=$word ;;
    esac
  done
  echo "$n"
}

rm -rf "$build/seeds"
"$build/fuzz/make_seeds" "$build/seeds" "$src/../../shared/models" "$src/.." ||
  { echo "fuzz: make_seeds failed"; exit 1; }

symbolizer=$(command -v llvm-symbolizer-19 || true)
[ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$src/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"

fixed=()
[ -n "${FUZZ_RUNS:-}" ] && setarch "$(uname -m)" -R true 2>/dev/null && fixed=(setarch "$(uname -m)" -R)

summary="$build/fuzz-summary.txt"
printf '%-15s %10s %8s %7s %7s %6s  %s\n' target runs exec/s cov ft secs result >"$summary"
failed=0
for t in "${targets[@]}"; do
  bin="$build/fuzz/fuzz_$t"
  corpus="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  log="$build/logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  args=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10
        -max_len="${max_len[$t]}" -dict="$src/dict/${dict[$t]}.dict" -print_final_stats=1
        -artifact_prefix="$artifacts/")
  want=$(runs_for "$t")
  if [ -n "$want" ]; then
    limit=$((seconds * 4))
    echo "fuzz: $t for $want inputs"
  else
    limit=$seconds
    echo "fuzz: $t for ${seconds}s"
  fi
  start=$(date +%s)
  : >"$log"
  result=ok
  restarts=0
  while :; do
    left=$((limit - ($(date +%s) - start)))
    [ $left -lt 1 ] && left=1
    run_args=(-max_total_time="$left")
    # A restart after one of Assimp's own failures goes on with the inputs left, from the next
    # seed, so that a fixed run stays fixed.
    [ -n "${FUZZ_SEED:-}" ] && run_args+=(-seed=$((FUZZ_SEED + restarts)))
    if [ -n "$want" ]; then
      done_runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" |
                  awk '{n += $2} END {print n + 0}')
      [ "$done_runs" -ge "$want" ] && { rc=0; break; }
      run_args+=(-runs=$((want - done_runs)))
    fi
    nice -n "${FUZZ_NICE:-0}" "${fixed[@]}" "$bin" "${args[@]}" "${run_args[@]}" "$corpus" \
      "$build/seeds/$t" >>"$log" 2>&1
    rc=$?
    restarts=$((restarts + 1))
    [ $rc -eq 0 ] || [ "$t" != assimp ] && break
    # Assimp: replay the input that stopped the run; Assimp's own failures are a known limit and
    # the run goes on for the rest of its time.
    a=$(ls -t "$artifacts"/crash-* "$artifacts"/oom-* "$artifacts"/leak-* "$artifacts"/timeout-* \
          "$artifacts"/slow-unit-* 2>/dev/null | head -n1)
    [ -n "$a" ] || break
    out=$(timeout 60 "$bin" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 "$a" 2>&1)
    first=$(grep -E '^ +#[0-9]+ ' <<<"$out" |
            grep -vE 'libclang_rt|compiler-rt|sanitizer_common|libc\.so|libstdc\+\+|fuzzer::|in (abort|raise|malloc|calloc|realloc|operator new|__cxa_throw|__assert_fail|__sanitizer|__asan)' |
            head -n1)
    if grep -q 'libassimp' <<<"$first"; then
      echo "fuzz: $t: inside Assimp (known limit): $a"
      mv "$a" "$artifacts/assimp-$(basename "$a")"
      result=assimp
    else
      break
    fi
    [ $(($(date +%s) - start)) -ge "$limit" ] && { rc=0; break; }
  done
  secs=$(($(date +%s) - start))
  if [ $rc -ne 0 ]; then
    result=FAILED
    failed=1
    echo "fuzz: $t FAILED (exit $rc); log: $log"
    grep -E 'ERROR|SUMMARY|fuzz property|^ +#[0-9]+ |Test unit written' "$log" | head -n 20
  fi
  runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | awk '{n += $2} END {print n + 0}')
  eps=$((runs / (secs > 0 ? secs : 1)))
  [ -n "$want" ] && [ $rc -eq 0 ] && [ "$runs" -lt "$want" ] && result=capped
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1 | grep -oE '[0-9]+$')
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n1 | grep -oE '[0-9]+$')
  printf '%-15s %10s %8s %7s %7s %6s  %s\n' "$t" "${runs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" \
    "$secs" "$result" | tee -a "$summary"
done
echo "fuzz: figures in $summary"
exit $failed
