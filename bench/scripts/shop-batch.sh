#!/usr/bin/env bash
# Several example shops at once on CPU 1, each under its own LoadGenerator at 200 requests/s on
# CPU 0, all reporting to one whyslowd on CPU 0; the request threads' CPU of each shop read by
# ThreadCpu in slices of 30 s (bench/LATENCY.md, "the batch"). Shops of one batch share the host's
# state, so their request threads compare to two or three points; batches an hour apart do not.
#
#   bench/scripts/shop-batch.sh <out dir> <first slice at, s> <slices> <arm>...
#   arm = label;<extra JVM options>;<agent arguments, or none for no agent>[;<agent jar>]
#
# Every agent gets service=batch-<port>,include=dev.whyslow.examples.shop,sampling.rate=0.0001,
# units=on,log=info and then the arm's arguments (a later key wins). Needs a build
# (mvn -B -ntp -DskipTests package), taskset and two CPUs. Example, the agent against no agent:
#
#   bench/scripts/shop-batch.sh batch-out 170 6 "none;;none" "agent;;"
#
# Prints each arm's request threads in ms of CPU per second, slice by slice, and the mean of each
# against the mean of the arms named none, none1, none2...; CODELIST=1 also saves each shop's
# compiled methods (jcmd Compiler.codelist) at the end, and PERF=1 records each shop under
# perf (cpu-clock, 999 Hz) through the slices into <label>.perf.data and writes its JIT symbol map
# (jcmd Compiler.perfmap, the perf-<pid>.map that perf reads) at the end, for perf report --sort comm,sym;
# PERF=g records call graphs too (perf -g; give every arm -XX:+PreserveFramePointer for Java frames).
# Each shop's threads' context switches, voluntary and not, are saved at the first slice and after
# the last (<label>.switches.start and .end: thread id, voluntary, involuntary, name, which may hold spaces).
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,23p' "$0" >&2
  exit 2
fi
out=$1 start=$2 slices=$3
shift 3
if ! [[ $start =~ ^[0-9]+$ && $slices =~ ^[1-9][0-9]*$ ]]; then
  echo "shop-batch: <first slice at> and <slices> must be whole numbers (slices at least 1), were '$start' and '$slices'" >&2
  exit 2
fi
for arm in "$@"; do
  if ! [[ $arm =~ ^[A-Za-z0-9_-]+\;[^\;]*\;[^\;]*(\;[^\;]+)?$ ]]; then
    echo "shop-batch: arm '$arm' is not label;<JVM options>;<agent arguments or none>[;<agent jar>]" >&2
    exit 2
  fi
done
root=$(cd "$(dirname "$0")/../.." && pwd)
agent=$root/agent/target/whyslow-agent.jar
examples=$root/examples/target/whyslow-examples.jar
bench=$root/bench/target/whyslow-bench.jar
for jar in "$agent" "$examples" "$bench"; do
  [ -f "$jar" ] || { echo "shop-batch: $jar is missing; build first (mvn -B -ntp -DskipTests package)" >&2; exit 2; }
done
mkdir -p "$out"
rm -rf "$out/data"
taskset -c 0 "$root/daemon/bin/whyslowd" --data.dir="$out/data" > "$out/daemon.log" 2>&1 &
daemon=$!
shops=() labels=() loads=()
trap 'kill "${loads[@]}" "${shops[@]}" "$daemon" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
sleep 4
port=18100
for arm in "$@"; do
  IFS=';' read -r label jvm args jar <<< "$arm"
  port=$((port + 1))
  attach=()
  if [ "$args" != none ]; then
    attach=("-javaagent:${jar:-$agent}=service=batch-$port,include=dev.whyslow.examples.shop,sampling.rate=0.0001,units=on,log=info${args:+,$args}")
  fi
  # shellcheck disable=SC2086 # the arm's JVM options are split on purpose
  taskset -c 1 java -Xms512m -Xmx512m $jvm "${attach[@]}" -cp "$examples" \
    dev.whyslow.examples.shop.ShopService --port "$port" --threads 4 > "$out/$label.shop.log" 2>&1 &
  shops+=($!)
  labels+=("$label")
done
sleep 3
for i in "${!shops[@]}"; do
  taskset -c 0 java -cp "$examples" dev.whyslow.examples.shop.LoadGenerator \
    --url "http://127.0.0.1:$((18101 + i))" --rate 200 --warmup 20s \
    --duration "$((start + slices * 30 + 60))s" --mix search=50,product=30,cart=15,checkout=5 \
    --bug-share 0 > "$out/${labels[$i]}.load.log" 2>&1 &
  loads+=($!)
done
sleep "$start"
switches() { # <pid>: each thread's id, voluntary and involuntary context switches, and name
  for t in /proc/"$1"/task/*; do
    awk -F'\t' -v tid="${t##*/}" '$1 == "Name:" { n = $2 } $1 ~ /^voluntary/ { v = $2 } $1 ~ /^nonvoluntary/ { i = $2 }
      END { print tid, v, i, n }' "$t/status" 2> /dev/null || true
  done
}
for i in "${!shops[@]}"; do
  switches "${shops[$i]}" > "$out/${labels[$i]}.switches.start"
done
perfs=()
graph=()
[ "${PERF:-}" = g ] && graph=(-g)
if [ -n "${PERF:-}" ]; then
  for i in "${!shops[@]}"; do
    perf record -q -e cpu-clock -F 999 "${graph[@]}" -p "${shops[$i]}" -o "$out/${labels[$i]}.perf.data" \
      -- sleep "$((slices * 30))" > "$out/${labels[$i]}.perf.log" 2>&1 &
    perfs+=($!)
  done
fi
for s in $(seq 1 "$slices"); do
  readers=()
  for i in "${!shops[@]}"; do
    java -cp "$bench" dev.whyslow.bench.latency.ThreadCpu "${shops[$i]}" 30 \
      > "$out/${labels[$i]}.slice$s.txt" 2>&1 &
    readers+=($!)
  done
  wait "${readers[@]}"
done
for i in "${!shops[@]}"; do
  switches "${shops[$i]}" > "$out/${labels[$i]}.switches.end"
done
if [ ${#perfs[@]} -gt 0 ]; then
  wait "${perfs[@]}" || true
  for i in "${!shops[@]}"; do
    jcmd "${shops[$i]}" Compiler.perfmap > /dev/null 2>&1 || true
    echo "${labels[$i]} ${shops[$i]}" >> "$out/perf-pids.txt"
  done
fi
if [ -n "${CODELIST:-}" ]; then
  for i in "${!shops[@]}"; do
    jcmd "${shops[$i]}" Compiler.codelist > "$out/${labels[$i]}.codelist.txt" 2>&1 || true
  done
fi
for l in "${labels[@]}"; do
  printf '%-12s' "$l"
  for s in $(seq 1 "$slices"); do
    awk '$1 == "requests" { printf "%8.1f", $2 }' "$out/$l.slice$s.txt"
  done
  echo
done
for l in "${labels[@]}"; do
  cat "$out/$l".slice*.txt | awk -v l="$l" '$1 == "requests" { n++; t += $2 } END { print l, t / n }'
done | awk '{ m[$1] = $2; order[NR] = $1 } $1 ~ /^none[0-9]*$/ { b += $2; nb++ }
  END { for (i = 1; i <= NR; i++) { a = order[i]
          if (nb) printf "%-12s %8.1f ms/s  %+6.1f %%\n", a, m[a], 100 * (m[a] / (b / nb) - 1)
          else printf "%-12s %8.1f ms/s\n", a, m[a] } }'
