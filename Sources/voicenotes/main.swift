import Foundation

// Engines spin their worker threads unless told otherwise, which starves everything else on a
// small machine. OpenMP reads the setting once, when it loads, so set it and start over.
if ProcessInfo.processInfo.environment["OMP_WAIT_POLICY"] == nil {
  setenv("OMP_WAIT_POLICY", "passive", 1)
  let arguments = CommandLine.unsafeArgv
  execv("/proc/self/exe", arguments)
}

let status = await CommandRunner.run(root: VoiceNotesCommand.self, arguments: Array(CommandLine.arguments.dropFirst()))
fflush(nil)
exit(status)
