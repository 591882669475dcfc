import Foundation

// Settings the C runtime and the engines read once, when the process starts: set them and start
// over when they are missing.
// - OMP_WAIT_POLICY: engines spin their worker threads unless told otherwise, which starves
//   everything else on a small machine.
// - MALLOC_MMAP_THRESHOLD_: blocks of a megabyte or more (audio windows, engine buffers) come
//   straight from the kernel and go back to it when freed. By default glibc raises that
//   threshold after the first such block is freed and keeps later ones for reuse, so memory grew
//   with a recording's length: ten minutes' transcription peaked 11% above two minutes', against
//   9% with this (both also 60 MB lower).
var restart = false
for (name, value) in [("OMP_WAIT_POLICY", "passive"), ("MALLOC_MMAP_THRESHOLD_", "1048576")]
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
