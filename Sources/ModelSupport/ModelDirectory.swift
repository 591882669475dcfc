import Foundation

/// Where models and downloads live on this machine.
///
/// Models: `VOICENOTES_MODELS` if set; else `.deps/models` of the checkout the program was built
/// in (found by walking up from the executable); else `$XDG_DATA_HOME/voicenotes/models`.
/// Downloads are cached in `VOICENOTES_CACHE` (default `~/.cache/voicenotes`) so that several
/// checkouts share them.
public struct ModelDirectory: Sendable, Hashable {
  /// The folder holding installed model files.
  public var url: URL

  /// A models folder at `url`.
  public init(url: URL) { self.url = url }

  /// The folder chosen from the environment, as described on the type.
  public static var current: ModelDirectory {
    let configuration = EngineConfiguration.current
    if let folder = configuration.modelsFolder { return ModelDirectory(url: folder) }
    if let checkout = EngineHost.checkoutFolder(".deps/models") { return ModelDirectory(url: checkout) }
    return ModelDirectory(url: configuration.dataHome.appendingPathComponent("voicenotes/models", isDirectory: true))
  }

  /// The download cache shared by every checkout on the machine.
  public static var cache: URL { EngineConfiguration.current.cacheFolder }

  /// The path of the file called `name` in this folder (whether or not it exists).
  public func file(named name: String) -> URL { url.appendingPathComponent(name) }

}
