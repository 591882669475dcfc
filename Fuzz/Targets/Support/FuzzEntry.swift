import Foundation

/// libFuzzer's entry point for one input (libFuzzer's driver also links against it by name): runs
/// the target named by `VOICENOTES_FUZZ_TARGET`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzTarget.selected.run(size == 0 || data == nil ? Data() : Data(bytes: data!, count: size))
  return 0
}
