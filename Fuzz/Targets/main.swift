import CLibFuzzer
import Foundation

// libFuzzer's driver, running the target named by VOICENOTES_FUZZ_TARGET on each input.
_ = FuzzTarget.selected
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
