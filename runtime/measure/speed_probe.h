// SpeedProbe: a fixed piece of arithmetic timed on one thread, so two machines can be compared:
// the tracker scales a device's timeouts by how much longer the device takes over it than the
// tracker (a board under qemu takes 20-50 times as long; a small board 3-10 times).
#pragma once

namespace tunefarm::runtime::measure {

// The fastest of three runs of the probe, in seconds (a few ms on a server core).
double SpeedProbeSeconds();

// How many times slower a machine whose probe took `theirs` is than one that took `ours`, in
// [1, 100]; 1 when either is unknown (0, negative or not finite).
double Slowness(double theirs, double ours);

}  // namespace tunefarm::runtime::measure
