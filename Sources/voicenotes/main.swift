import Foundation

// Settings the C runtime and the engines read once, when the process starts: set them and start
// over when they are missing.
// - OMP_WAIT_POLICY: engines spin their worker threads unless told otherwise, which starves
//   everything else on a small machine.
// - MALLOC_MMAP_THRESHOLD_: blocks of 64 KB or more (audio windows, engine buffers, the
//   decoder's vectors over the vocabulary) come straight from the kernel and go back to it when
//   freed. By default glibc raises that threshold after the first such block is freed and keeps
//   later ones in its heap, where they fragment it: memory grew with a recording's length. Ten
//   minutes' transcription peaked 9% above two minutes' with a 1 MB threshold, 3% with this,
//   at the same speed.
var restart = false
for (name, value) in [("OMP_WAIT_POLICY", "passive"), ("MALLOC_MMAP_THRESHOLD_", "65536")]
where ProcessInfo.processInfo.environment[name] == nil {
  setenv(name, value, 1)
  restart = true
}
if restart {
  execv("/proc/self/exe", CommandLine.unsafeArgv)
}

let status = await CommandRunner.run(root: VoiceNotesCommand.self, arguments: Array(CommandLine.arguments.dropFirst()))
fflush(nil)
exit(status)
