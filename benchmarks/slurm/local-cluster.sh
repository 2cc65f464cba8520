#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine, for testing
# `cbreach suite --slurm` against a real scheduler (docs/tasks.md).
#
#   bash benchmarks/slurm/local-cluster.sh
#
# Needs root and Debian's packages: it installs slurm-wlm and munge
# (apt-get), writes /etc/slurm/slurm.conf for one node on localhost with
# the machine's real CPUs and memory (no accounting, no cgroups:
# proctrack/linuxproc, task/none), and starts munged (as the munge user),
# slurmctld and slurmd itself, without systemd. It is idempotent: run
# again, it leaves running daemons alone, restarts the ones that stopped,
# and returns once `sinfo` shows the node idle.
set -euo pipefail

if [ "$(id -u)" != 0 ]; then
	echo "local-cluster.sh: run as root (it installs packages and starts daemons)" >&2
	exit 2
fi

log() { echo "local-cluster.sh: $*" >&2; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
	log "installing slurm-wlm and munge"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y slurm-wlm munge
fi

# munge: a key, its run directory, and the daemon as the munge user.
if [ ! -s /etc/munge/munge.key ]; then
	log "creating /etc/munge/munge.key"
	if command -v mungekey >/dev/null; then
		mungekey --create --keyfile=/etc/munge/munge.key
	else
		dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
	fi
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
chmod 0755 /run/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
	log "starting munged"
	rm -f /run/munge/munged.pid
	runuser -u munge -- /usr/sbin/munged
	for _ in $(seq 50); do
		munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break
		sleep 0.1
	done
	munge -n | unmunge >/dev/null
fi

# slurm.conf: one node, this host, on the loopback address.
host=$(hostname -s)
# slurmd -C prints the node's real CPUs, sockets, cores, threads and memory.
node=$(slurmd -C | head -n 1 | sed -E 's/^NodeName=[^ ]+ //; s/UpTime=.*//')
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/slurm
conf=$(cat <<CONF
# Written by benchmarks/slurm/local-cluster.sh: a one-node test cluster.
ClusterName=cbreach-local
SlurmctldHost=${host}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
MaxArraySize=100001
MaxJobCount=100000
MinJobAge=30
KillWait=5
NodeName=${host} NodeAddr=127.0.0.1 ${node} State=UNKNOWN
PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP
CONF
)
changed=0
if [ ! -f /etc/slurm/slurm.conf ] || [ "$(cat /etc/slurm/slurm.conf)" != "$conf" ]; then
	log "writing /etc/slurm/slurm.conf"
	printf '%s\n' "$conf" >/etc/slurm/slurm.conf
	changed=1
fi

running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

if running /run/slurm/slurmctld.pid && [ "$changed" = 1 ]; then
	log "reconfiguring the running daemons"
	scontrol reconfigure || true
fi
if ! running /run/slurm/slurmctld.pid; then
	log "starting slurmctld"
	/usr/sbin/slurmctld
fi
for _ in $(seq 100); do
	scontrol ping >/dev/null 2>&1 && break
	sleep 0.2
done
if ! running /run/slurm/slurmd.pid; then
	log "starting slurmd"
	/usr/sbin/slurmd
fi

# Wait for the node to be idle; a node left down or drained by an earlier
# run is resumed.
for i in $(seq 150); do
	state=$(sinfo -h -N -n "$host" -o %t 2>/dev/null | head -n 1)
	case "$state" in
	idle | mix | alloc)
		log "node $host is $state"
		exit 0
		;;
	down* | drain* | drng*)
		if [ $((i % 10)) = 1 ]; then scontrol update NodeName="$host" State=RESUME >/dev/null 2>&1 || true; fi
		;;
	esac
	sleep 0.2
done
log "node $host did not become idle (state: ${state:-none}); see /var/log/slurm/"
sinfo -N -l >&2 || true
exit 1
