#!/bin/bash
# multi-host.sh: runs an MPI program built by tcc across N "hosts" that are
# Linux network namespaces on this machine, joined by a bridge, with OpenMPI
# talking TCP between them as it would between real hosts.
#
#   scripts/multi-host.sh PROG [--hosts N] [--np P] -- PROGRAM_ARGS...
#
#   --hosts N   number of host namespaces (default 2)
#   --np P      MPI ranks (default 2); rank r runs on host r mod N
#
# Layout (nothing is added to the root namespace; needs root, iproute2, and
# bridge/veth support in the kernel):
#   mh<pid>-br   holds the bridge br0 and one veth end per host (h0, h1, ...)
#   mh<pid>-hK   host K: lo and eth0 = 10.77.0.(K+1)/24, the other veth end
# mpirun runs inside host 0. The hostfile names the hosts by address; an rsh
# agent generated here (in place of ssh) starts OpenMPI's daemon for host K
# with `ip netns exec mh<pid>-hK`. Only the TCP BTL (plus self) and the ob1
# PML are allowed, on the bridge's subnet only.
#
# Each rank runs through a generated wrapper that records the network
# namespace it runs in and appends `--scratch WORK/scratch/hK` (a directory of
# its own per host) to PROGRAM_ARGS, so PROGRAM_ARGS should not hold --scratch.
# Paths in PROGRAM_ARGS must be absolute or relative to the current directory
# (all hosts share this machine's file system; ranks start in the current
# directory).
#
# Output (stdout): the mpirun command line, then per rank
#   multi-host: rank R host K namespace mh<pid>-hK net:[INODE] addr 10.77.0.X scratch DIR (created)
# and per host the bytes its eth0 sent and received
#   multi-host: host K namespace mh<pid>-hK eth0 tx_bytes T rx_bytes R
# The program's own output goes through unchanged.
#
# Exit status: the program's (mpirun's); 1 if ranks did not land on
# min(N, P) distinct namespaces or setup failed; 77 when network namespaces
# cannot be created here (it then prints
#   multi-host: skipped: cannot create network namespaces (REASON)
# ); MULTI_HOST_REQUIRE=1 turns that skip into a failure (status 1).
# Namespaces, bridge, veths and temporary files are removed on every exit
# (but a SIGKILL of this script leaves the mh<pid>-* namespaces: `ip netns
# list` shows them, `ip netns delete NAME` removes each).

# Generated scripts are single-quoted on purpose, "tcp,self" is one word, pid
# lists are split on purpose, and cleanup runs from a trap:
# shellcheck disable=SC2016,SC2054,SC2086,SC2317
set -euo pipefail

usage() { sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

[ $# -ge 1 ] || usage
PROG=$1; shift
HOSTS=2 NP=2
while [ $# -gt 0 ]; do
  case $1 in
    --hosts) HOSTS=$2; shift 2 ;;
    --np) NP=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) echo "multi-host: unknown option '$1'" >&2; usage ;;
  esac
done
[[ $HOSTS =~ ^[1-9][0-9]*$ && $HOSTS -le 250 ]] || { echo "multi-host: bad --hosts" >&2; exit 2; }
[[ $NP =~ ^[1-9][0-9]*$ ]] || { echo "multi-host: bad --np" >&2; exit 2; }
[ -x "$PROG" ] || { echo "multi-host: $PROG is not an executable" >&2; exit 2; }
PROG=$(readlink -f "$PROG")   # ranks exec it by absolute path

SUBNET=10.77.0.0/24
addr() { echo "10.77.0.$(($1 + 1))"; }   # host K's address
PFX=mh$$                                   # unique per run: concurrent runs do not collide
BRNS=$PFX-br
WORK=$(mktemp -d /tmp/multi-host.XXXXXX)
CREATED=()                                 # namespaces to delete on exit

cleanup() {
  local status=$? ns pids
  trap - EXIT INT TERM
  # Processes left in our namespaces (mpirun, OpenMPI's daemons, which detach
  # from the agent, ranks) would keep the interfaces alive after the names are
  # gone: end them first, gently, then not. They can only be ours, since the
  # namespaces are.
  nspids() { for ns in "${CREATED[@]}"; do ip netns pids "$ns" 2>/dev/null || true; done; }
  pids=$(nspids)
  if [ -n "$pids" ]; then
    kill -TERM $pids 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      pids=$(nspids); [ -n "$pids" ] || break
      sleep 0.2
    done
    [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  fi
  # Deleting a namespace deletes the veth ends and the bridge inside it.
  for ns in "${CREATED[@]}"; do ip netns delete "$ns" 2>/dev/null || true; done
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

skip() {
  if [ "${MULTI_HOST_REQUIRE:-0}" = 1 ]; then
    echo "multi-host: FAIL: cannot create network namespaces ($1) and MULTI_HOST_REQUIRE=1" >&2
    exit 1
  fi
  echo "multi-host: skipped: cannot create network namespaces ($1)"
  exit 77
}

# --- Can we? (every failure to build the network is a reason to skip: it
# says nothing about the program) ---
command -v ip >/dev/null || skip "no 'ip' command (iproute2)"
command -v mpirun >/dev/null || { echo "multi-host: no mpirun on PATH" >&2; exit 1; }
[ "$(id -u)" = 0 ] || skip "not root"
try() {   # try WHAT CMD...: run CMD, skip with its error message if it fails
  local what=$1 err; shift
  err=$("$@" 2>&1) || skip "$what: $(echo "$err" | head -n1)"
}
in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# --- The network: a bridge in its own namespace, one veth per host ---
try "ip netns add $BRNS" ip netns add "$BRNS"; CREATED+=("$BRNS")
try "bridge" in_ns "$BRNS" ip link add br0 type bridge
in_ns "$BRNS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 2>/dev/null || true
in_ns "$BRNS" ip link set lo up
in_ns "$BRNS" ip link set br0 up
for ((k = 0; k < HOSTS; k++)); do
  ns=$PFX-h$k
  try "ip netns add $ns" ip netns add "$ns"; CREATED+=("$ns")
  # Both ends are created directly inside their namespaces, so no interface
  # ever appears in the root namespace.
  try "veth" ip link add eth0 netns "$ns" type veth peer name "h$k" netns "$BRNS"
  in_ns "$BRNS" ip link set "h$k" master br0 up
  # No IPv6: no autoconfiguration traffic, and OpenMPI sees one address only.
  in_ns "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 2>/dev/null || true
  in_ns "$ns" ip addr add "$(addr $k)/24" dev eth0
  in_ns "$ns" ip link set lo up
  in_ns "$ns" ip link set eth0 up
  mkdir -p "$WORK/tmp/h$k"
done
# The bridge forwards at once (it does not run STP); still, check that host 0
# reaches every other host before starting MPI, for a clear message if not.
# (No ping here: a TCP connect to a port nobody listens on in a fresh
# namespace is answered "Connection refused" only if the host is reachable.)
reaches() {
  local out
  out=$(in_ns "$PFX-h0" timeout 3 bash -c "exec 3<>/dev/tcp/$1/9" 2>&1) || [[ $out == *refused* ]]
}
for ((k = 1; k < HOSTS; k++)); do
  reaches "$(addr $k)" || { echo "multi-host: host 0 cannot reach host $k ($(addr $k))" >&2; exit 1; }
done

# --- What mpirun needs: hostfile, rsh agent, rank wrapper ---
SLOTS=$(((NP + HOSTS - 1) / HOSTS))
for ((k = 0; k < HOSTS; k++)); do echo "$(addr $k) slots=$SLOTS"; done >"$WORK/hostfile"

# The agent replaces ssh. OpenMPI 4.1's rsh launcher runs
#   AGENT [plm_rsh_args] HOST orted-command-words...
# where the words form one shell command line (with `VAR=...;export VAR;`
# prefixes and quoted arguments), which ssh would hand to the remote shell. We
# do the same in HOST's namespace, with a clean environment as ssh gives, and a
# TMPDIR of the host's own (OpenMPI's session directory, like a host's /tmp).
{
  echo '#!/bin/sh'
  echo 'while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done  # options ssh would take'
  echo 'host=$1; shift'
  echo 'case $host in'
  for ((k = 0; k < HOSTS; k++)); do echo "  $(addr $k)) k=$k ;;"; done
  echo '  *) echo "multi-host agent: unknown host $host" >&2; exit 255 ;;'
  echo 'esac'
  echo "exec ip netns exec $PFX-h\$k env -i PATH=\"\$PATH\" HOME=\"\$HOME\" \\"
  echo "  TMPDIR=$WORK/tmp/h\$k sh -c \"\$*\""
} >"$WORK/agent"

# The wrapper runs as each rank: record where it is, then become the program
# with a scratch directory of this host's own.
{
  echo '#!/bin/bash'   # bash: PROG is quoted with printf %q
  echo 'ns=$(ip netns identify $$)'
  echo "k=\${ns#$PFX-h}"
  echo "echo \"rank \$OMPI_COMM_WORLD_RANK host \$k namespace \$ns \$(readlink /proc/self/ns/net)" \
       "addr \$(ip -4 -o addr show dev eth0 | awk '{print \$4}' | cut -d/ -f1)" \
       "scratch $WORK/scratch/h\$k\" >$WORK/rank.\$OMPI_COMM_WORLD_RANK"
  echo "exec $(printf %q "$PROG") \"\$@\" --scratch $WORK/scratch/h\$k"
} >"$WORK/rank"
chmod +x "$WORK/agent" "$WORK/rank"

# --- Run ---
MPIRUN=(mpirun --allow-run-as-root -np "$NP" --hostfile "$WORK/hostfile" --map-by node
        --mca plm_rsh_agent "$WORK/agent" --mca plm_rsh_no_tree_spawn 1
        --mca pml ob1 --mca btl tcp,self
        --mca btl_tcp_if_include "$SUBNET" --mca oob_tcp_if_include "$SUBNET"
        "$WORK/rank" "$@")
echo "multi-host: ${MPIRUN[*]}"
# In the background and waited for, so that a signal to this script runs the
# cleanup at once (bash defers traps while a foreground command runs).
ip netns exec "$PFX-h0" env TMPDIR="$WORK/tmp/h0" "${MPIRUN[@]}" &
status=0
wait $! || status=$?

# --- Evidence: where each rank ran, what crossed each host's wire ---
for ((r = 0; r < NP; r++)); do
  if [ -f "$WORK/rank.$r" ]; then
    line=$(cat "$WORK/rank.$r")
    # The program creates its --scratch directory: proof the option reached it.
    [ -d "${line##* }" ] && line+=" (created)" || line+=" (missing)"
    echo "multi-host: $line"
  else
    echo "multi-host: rank $r did not start"
  fi
done
for ((k = 0; k < HOSTS; k++)); do
  s=/sys/class/net/eth0/statistics
  echo "multi-host: host $k namespace $PFX-h$k eth0" \
       "tx_bytes $(in_ns "$PFX-h$k" cat $s/tx_bytes) rx_bytes $(in_ns "$PFX-h$k" cat $s/rx_bytes)"
done
if [ $status = 0 ]; then
  want=$((NP < HOSTS ? NP : HOSTS))
  got=$(cat "$WORK"/rank.* 2>/dev/null | awk '{print $7}' | sort -u | wc -l)
  if [ "$got" != "$want" ]; then
    echo "multi-host: FAIL: ranks ran in $got distinct namespaces, not $want" >&2
    status=1
  fi
fi
exit $status
