import Foundation

/// A CTranslate2 `model.bin`, read in place: the variable table and where each variable's bytes lie.
///
/// The format: u32 version, a u16-length-prefixed spec name, u32 revision, u32 variable count;
/// each variable is a name, u8 rank, rank u32 dimensions, u8 dtype, u32 byte count and the data;
/// then u32 alias count and (alias, target) name pairs. All little-endian.
struct CTranslate2Model {
  /// Element types CTranslate2 stores.
  enum DType: UInt8 {
    case float32 = 0
    case int8, int16, int32, float16

    var byteWidth: Int {
      switch self {
      case .int8: 1
      case .int16, .float16: 2
      case .float32, .int32: 4
      }
    }
  }

  /// One named array in the file.
  struct Variable {
    var name: String
    var shape: [Int]
    var dtype: DType
    var range: Range<Int>

    var elementCount: Int { shape.reduce(1, *) }
  }

  /// The model's architecture, for example `WhisperSpec`.
  let specName: String
  let data: Data
  private(set) var variables: [String: Variable] = [:]

  init(contentsOf url: URL) throws(ModelAssetError) {
    do {
      data = try Data(contentsOf: url, options: .alwaysMapped)
    } catch {
      throw .conversionFailed(
        model: url.lastPathComponent, detail: "cannot read \(url.path): \(error.localizedDescription)")
    }
    var reader = ByteReader(data: data, file: url.lastPathComponent)
    let version = try reader.read(UInt32.self)
    guard version >= 5 else {
      throw .conversionFailed(model: url.lastPathComponent, detail: "unsupported CTranslate2 format version \(version)")
    }
    specName = try reader.readString()
    _ = try reader.read(UInt32.self)  // spec revision
    let count = try reader.read(UInt32.self)
    for _ in 0..<count {
      let name = try reader.readString()
      let rank = Int(try reader.read(UInt8.self))
      var shape: [Int] = []
      for _ in 0..<rank { shape.append(Int(try reader.read(UInt32.self))) }
      let rawType = try reader.read(UInt8.self)
      guard let dtype = DType(rawValue: rawType) else {
        throw .conversionFailed(model: url.lastPathComponent, detail: "variable \(name) has unknown dtype \(rawType)")
      }
      let byteCount = Int(try reader.read(UInt32.self))
      let start = reader.offset
      try reader.skip(byteCount)
      variables[name] = Variable(name: name, shape: shape, dtype: dtype, range: start..<(start + byteCount))
    }
    let aliases = try reader.read(UInt32.self)
    for _ in 0..<aliases {
      let alias = try reader.readString()
      let target = try reader.readString()
      if let variable = variables[target] { variables[alias] = variable }
    }
  }

  /// The variable called `name`, or a conversion error naming it.
  func variable(_ name: String) throws(ModelAssetError) -> Variable {
    guard let variable = variables[name] else {
      throw .conversionFailed(model: specName, detail: "the model has no variable \(name)")
    }
    return variable
  }

  /// A scalar integer variable such as `encoder/num_heads`.
  func integer(_ name: String) throws(ModelAssetError) -> Int {
    let variable = try variable(name)
    let bytes = data[variable.range]
    switch variable.dtype {
    case .int8: return Int(Int8(bitPattern: bytes.first ?? 0))
    case .int16: return Int(bytes.withUnsafeBytes { $0.loadUnaligned(as: Int16.self) }.littleEndian)
    case .int32: return Int(bytes.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }.littleEndian)
    default: throw .conversionFailed(model: specName, detail: "\(name) is not an integer")
    }
  }
}

/// Sequential little-endian reads over a byte buffer, with bounds checks that name the file.
struct ByteReader {
  let data: Data
  let file: String
  private(set) var offset: Int

  init(data: Data, file: String) {
    self.data = data
    self.file = file
    self.offset = data.startIndex
  }

  mutating func read<T: FixedWidthInteger>(_: T.Type) throws(ModelAssetError) -> T {
    let size = MemoryLayout<T>.size
    guard offset + size <= data.endIndex else { throw truncated }
    let value = data[offset..<(offset + size)].withUnsafeBytes { $0.loadUnaligned(as: T.self) }
    offset += size
    return T(littleEndian: value)
  }

  mutating func readString() throws(ModelAssetError) -> String {
    let length = Int(try read(UInt16.self))
    guard offset + length <= data.endIndex else { throw truncated }
    let bytes = data[offset..<(offset + length)].prefix { $0 != 0 }
    offset += length
    return String(decoding: bytes, as: UTF8.self)
  }

  mutating func skip(_ count: Int) throws(ModelAssetError) {
    guard count >= 0, offset + count <= data.endIndex else { throw truncated }
    offset += count
  }

  private var truncated: ModelAssetError {
    .conversionFailed(
      model: file, detail: "the file ends early at byte \(offset); it is truncated or not a CTranslate2 model")
  }
}
