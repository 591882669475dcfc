internal import CGGML
import Foundation

/// ggml's CPU backend, which whisper.cpp and llama.cpp compute with, loaded once per process.
///
/// The engines' build holds the backend as modules, one per CPU variant (`libggml-cpu.so` for
/// AVX2, `libggml-cpu-icelake.so` for AVX-512 with VNNI, `libggml-cpu-zen4.so` with BF16 as well,
/// …), beside libggml. ggml scores each against the CPU and loads the best that the CPU can run,
/// so one build uses AVX-512 where it exists and AVX2 elsewhere. An engine built with its CPU backend linked in needs no loading.
public enum ComputeBackend {
  /// Loads the CPU backend if no engine has yet, or says why it cannot be.
  public static func load() throws(ComputeBackendError) {
    try loaded.get()
  }

  private static let loaded: Result<Void, ComputeBackendError> = {
    if !EngineConfiguration.current.showsEngineLogs { ggml_log_set(ggmlDiscardLog, nil) }
    if ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU) == nil {
      guard let folder = libraryFolder() else { return .failure(.libraryNotFound) }
      ggml_backend_load_all_from_path(folder)
      guard ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU) != nil else {
        return .failure(.noCPUBackend(folder: folder))
      }
    }
    return .success(())
  }()

  /// The folder of the libggml this process loaded (from the process's memory map): where the
  /// build put the CPU modules.
  private static func libraryFolder() -> String? {
    // Read to the end rather than by the file's size, which procfs reports as 0.
    guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      guard let slash = line.firstIndex(of: "/") else { continue }
      let file = URL(fileURLWithPath: String(line[slash...]))
      if file.lastPathComponent.hasPrefix("libggml.so") { return file.deletingLastPathComponent().path }
    }
    return nil
  }
}

/// Why ggml's CPU backend could not be loaded.
public enum ComputeBackendError: Error, LocalizedError, Equatable, Sendable {
  /// The process has no libggml whose folder could be found.
  case libraryNotFound
  /// The folder holds no CPU backend module that this CPU can run.
  case noCPUBackend(folder: String)

  /// A one-line message that says what went wrong and what to do.
  public var errorDescription: String? {
    switch self {
    case .libraryNotFound:
      "could not find the folder of libggml to load its CPU backend from; run make deps again"
    case .noCPUBackend(let folder):
      "\(folder) holds no ggml CPU backend (libggml-cpu*.so) that this CPU can run; run make deps again"
    }
  }
}

private func ggmlDiscardLog(
  _ level: ggml_log_level, _ text: UnsafePointer<CChar>?, _ userData: UnsafeMutableRawPointer?
) {}
