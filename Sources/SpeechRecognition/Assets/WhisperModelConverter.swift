import Foundation
import ModelSupport

/// Converts a Whisper model from CTranslate2 format (as shipped in PyPI packages) to the ggml
/// file whisper.cpp loads.
///
/// The ggml file holds the magic `ggml`, eleven i32 hyperparameters, the mel filters, the
/// vocabulary (length-prefixed byte strings, special tokens excluded: whisper.cpp adds those) and
/// named tensors with dimensions in reverse order. Large matrices stay f16; vectors, conv biases
/// and positional embeddings are f32, as whisper.cpp expects. CTranslate2 stacks q/k/v (and the
/// cross-attention k/v) into one matrix; they are split here.
struct WhisperModelConverter {
  let model: CTranslate2Model
  let vocabulary: [String]
  let name: String
  /// Whether matrices are stored as q8_0 (8-bit, about half the size and faster) instead of f16.
  let quantized: Bool

  /// Reads `modelFile` (a CTranslate2 `model.bin`) and `vocabularyFile` (its `vocabulary.txt`).
  init(modelFile: URL, vocabularyFile: URL, name: String, quantized: Bool = false) throws(ModelAssetError) {
    self.name = name
    self.quantized = quantized
    model = try CTranslate2Model(contentsOf: modelFile)
    guard model.specName == "WhisperSpec" else {
      throw .conversionFailed(model: name, detail: "expected a Whisper model, found \(model.specName)")
    }
    do {
      let text = try String(contentsOf: vocabularyFile, encoding: .utf8)
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if lines.last == "" { lines.removeLast() }
      vocabulary = lines
    } catch {
      throw .conversionFailed(
        model: name, detail: "cannot read \(vocabularyFile.lastPathComponent): \(error.localizedDescription)")
    }
  }

  /// Writes the ggml model to `destination`, atomically, calling `progress` with the fraction done.
  func write(to destination: URL, progress: (Double) -> Void = { _ in }) throws(ModelAssetError) {
    let temporary = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).partial")
    _ = FileManager.default.createFile(atPath: temporary.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: temporary) }
    do {
      let handle = try FileHandle(forWritingTo: temporary)
      defer { try? handle.close() }
      try handle.write(contentsOf: try header())
      let tensors = try tensorPlan()
      for (index, tensor) in tensors.enumerated() {
        try handle.write(contentsOf: try encode(tensor))
        progress(Double(index + 1) / Double(tensors.count))
      }
      try handle.synchronize()
    } catch let error as ModelAssetError {
      throw error
    } catch {
      throw .conversionFailed(model: name, detail: "writing \(destination.path) failed: \(error.localizedDescription)")
    }
    do {
      try FileReplacement.move(temporary, over: destination)
    } catch {
      throw .conversionFailed(
        model: name, detail: "cannot move the converted model into place: \(error.localizedDescription)")
    }
  }

  // MARK: - Header

  private func header() throws(ModelAssetError) -> Data {
    let embeddings = try model.variable("decoder/embeddings/weight")
    let audioPositions = try model.variable("encoder/position_encodings/encodings")
    let textPositions = try model.variable("decoder/position_encodings/encodings")
    let conv1 = try model.variable("encoder/conv1/weight")
    let melCount = conv1.shape[1]
    let hyperparameters: [Int32] = [
      Int32(embeddings.shape[0]),  // n_vocab
      Int32(audioPositions.shape[0]),  // n_audio_ctx
      Int32(audioPositions.shape[1]),  // n_audio_state
      Int32(try model.integer("encoder/num_heads")),
      Int32(layerCount(prefix: "encoder")),
      Int32(textPositions.shape[0]),  // n_text_ctx
      Int32(textPositions.shape[1]),  // n_text_state
      Int32(try model.integer("decoder/num_heads")),
      Int32(layerCount(prefix: "decoder")),
      Int32(melCount),
      quantized ? 7 : 1,  // ftype: mostly q8_0, or mostly f16
    ]
    var data = Data()
    data.appendLittleEndian(UInt32(0x6767_6d6c))
    for value in hyperparameters { data.appendLittleEndian(value) }

    let filters = MelFilterBank.filters(melCount: melCount)
    data.appendLittleEndian(Int32(melCount))
    data.appendLittleEndian(Int32(filters.count / melCount))
    filters.withUnsafeBytes { data.append(contentsOf: $0) }

    let tokens = try textTokens()
    data.appendLittleEndian(Int32(tokens.count))
    for token in tokens {
      data.appendLittleEndian(UInt32(token.count))
      data.append(contentsOf: token)
    }
    return data
  }

  private func layerCount(prefix: String) -> Int {
    var count = 0
    while model.variables["\(prefix)/layer_\(count)/ffn/linear_0/weight"] != nil { count += 1 }
    return count
  }

  /// The vocabulary up to the first special token, as raw bytes (undoing GPT-2's byte-to-unicode map).
  private func textTokens() throws(ModelAssetError) -> [[UInt8]] {
    guard let end = vocabulary.firstIndex(of: "<|endoftext|>") else {
      throw .conversionFailed(model: name, detail: "vocabulary.txt has no <|endoftext|> token")
    }
    let decode = Self.unicodeToByte
    var tokens: [[UInt8]] = []
    tokens.reserveCapacity(end)
    for (index, token) in vocabulary[..<end].enumerated() {
      var bytes: [UInt8] = []
      for scalar in token.unicodeScalars {
        guard let byte = decode[scalar] else {
          throw .conversionFailed(
            model: name, detail: "vocabulary entry \(index) has a character outside the byte alphabet")
        }
        bytes.append(byte)
      }
      tokens.append(bytes)
    }
    return tokens
  }

  /// GPT-2's byte-level BPE stores each byte as a printable character; this is the inverse map.
  private static let unicodeToByte: [Unicode.Scalar: UInt8] = {
    var printable = Array(33...126) + Array(161...172) + Array(174...255)
    var characters = printable
    var next = 0
    for byte in 0...255 where !printable.contains(byte) {
      printable.append(byte)
      characters.append(256 + next)
      next += 1
    }
    var map: [Unicode.Scalar: UInt8] = [:]
    for (byte, character) in zip(printable, characters) { map[Unicode.Scalar(UInt32(character))!] = UInt8(byte) }
    return map
  }()

  // MARK: - Tensors

  /// How a tensor's elements are stored in the ggml file, with ggml's type numbers.
  private enum Storage: Int32 {
    case float32 = 0
    case float16 = 1
    case q8 = 8
  }

  /// One output tensor: a slice of rows of a CTranslate2 variable, with its ggml name and type.
  private struct Tensor {
    var name: String
    var source: CTranslate2Model.Variable
    var rows: Range<Int>? = nil
    var storage: Storage
    var shape: [Int]? = nil
  }

  private func tensorPlan() throws(ModelAssetError) -> [Tensor] {
    var plan: [Tensor] = []
    let matrixStorage: Storage = quantized ? .q8 : .float16
    func add(_ name: String, _ source: String, rows: Range<Int>? = nil, shape: [Int]? = nil, storage: Storage? = nil)
      throws(ModelAssetError)
    {
      let variable = try model.variable(source)
      let isVector = variable.shape.count < 2
      plan.append(
        Tensor(
          name: name, source: variable, rows: rows, storage: storage ?? (isVector ? .float32 : matrixStorage),
          shape: shape))
    }
    func norm(_ name: String, _ source: String) throws(ModelAssetError) {
      try add("\(name).weight", "\(source)/gamma")
      try add("\(name).bias", "\(source)/beta")
    }
    func linear(_ name: String, _ source: String, rows: Range<Int>? = nil, bias: Bool = true)
      throws(ModelAssetError)
    {
      try add("\(name).weight", "\(source)/weight", rows: rows)
      if bias { try add("\(name).bias", "\(source)/bias", rows: rows) }
    }

    let state = try model.variable("encoder/position_encodings/encodings").shape[1]
    let q = 0..<state
    let k = state..<(2 * state)
    let v = (2 * state)..<(3 * state)

    try add("encoder.positional_embedding", "encoder/position_encodings/encodings", storage: .float32)
    for conv in ["conv1", "conv2"] {
      try add("encoder.\(conv).weight", "encoder/\(conv)/weight", storage: .float16)
      let bias = try model.variable("encoder/\(conv)/bias")
      try add("encoder.\(conv).bias", "encoder/\(conv)/bias", shape: [bias.shape[0], 1], storage: .float32)
    }
    for layer in 0..<layerCount(prefix: "encoder") {
      let to = "encoder.blocks.\(layer)"
      let from = "encoder/layer_\(layer)"
      try norm("\(to).attn_ln", "\(from)/self_attention/layer_norm")
      try linear("\(to).attn.query", "\(from)/self_attention/linear_0", rows: q)
      try linear("\(to).attn.key", "\(from)/self_attention/linear_0", rows: k, bias: false)
      try linear("\(to).attn.value", "\(from)/self_attention/linear_0", rows: v)
      try linear("\(to).attn.out", "\(from)/self_attention/linear_1")
      try norm("\(to).mlp_ln", "\(from)/ffn/layer_norm")
      try linear("\(to).mlp.0", "\(from)/ffn/linear_0")
      try linear("\(to).mlp.2", "\(from)/ffn/linear_1")
    }
    try norm("encoder.ln_post", "encoder/layer_norm")

    try add("decoder.positional_embedding", "decoder/position_encodings/encodings", storage: .float32)
    try add("decoder.token_embedding.weight", "decoder/embeddings/weight")
    for layer in 0..<layerCount(prefix: "decoder") {
      let to = "decoder.blocks.\(layer)"
      let from = "decoder/layer_\(layer)"
      try norm("\(to).attn_ln", "\(from)/self_attention/layer_norm")
      try linear("\(to).attn.query", "\(from)/self_attention/linear_0", rows: q)
      try linear("\(to).attn.key", "\(from)/self_attention/linear_0", rows: k, bias: false)
      try linear("\(to).attn.value", "\(from)/self_attention/linear_0", rows: v)
      try linear("\(to).attn.out", "\(from)/self_attention/linear_1")
      try norm("\(to).cross_attn_ln", "\(from)/attention/layer_norm")
      try linear("\(to).cross_attn.query", "\(from)/attention/linear_0")
      try linear("\(to).cross_attn.key", "\(from)/attention/linear_1", rows: 0..<state, bias: false)
      try linear("\(to).cross_attn.value", "\(from)/attention/linear_1", rows: state..<(2 * state))
      try linear("\(to).cross_attn.out", "\(from)/attention/linear_2")
      try norm("\(to).mlp_ln", "\(from)/ffn/layer_norm")
      try linear("\(to).mlp.0", "\(from)/ffn/linear_0")
      try linear("\(to).mlp.2", "\(from)/ffn/linear_1")
    }
    try norm("decoder.ln", "decoder/layer_norm")
    return plan
  }

  private func encode(_ tensor: Tensor) throws(ModelAssetError) -> Data {
    let source = tensor.source
    guard source.dtype == .float16 || source.dtype == .float32 else {
      throw .conversionFailed(
        model: name, detail: "\(source.name) is quantized (\(source.dtype)); only f16/f32 models convert")
    }
    let rowLength = source.shape.dropFirst().reduce(1, *)
    let rows = tensor.rows ?? 0..<source.shape[0]
    var shape = tensor.shape ?? source.shape
    if tensor.rows != nil { shape[0] = rows.count }
    let width = source.dtype.byteWidth
    let bytes = model.data[
      (source.range.lowerBound + rows.lowerBound * rowLength * width)..<(source.range.lowerBound + rows.upperBound
        * rowLength * width)]

    var data = Data()
    let nameBytes = Array(tensor.name.utf8)
    data.appendLittleEndian(Int32(shape.count))
    data.appendLittleEndian(Int32(nameBytes.count))
    data.appendLittleEndian(tensor.storage.rawValue)
    for dimension in shape.reversed() { data.appendLittleEndian(Int32(dimension)) }
    data.append(contentsOf: nameBytes)

    let values: [Float] =
      switch source.dtype {
      case .float16:
        bytes.withUnsafeBytes { raw in
          (0..<(raw.count / 2)).map {
            Float(Float16(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self)))
          }
        }
      default:
        bytes.withUnsafeBytes { raw in
          (0..<(raw.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
        }
      }
    switch tensor.storage {
    case .float32:
      values.withUnsafeBytes { data.append(contentsOf: $0) }
    case .float16:
      values.map { Float16($0).bitPattern.littleEndian }.withUnsafeBytes { data.append(contentsOf: $0) }
    case .q8:
      data.append(Self.quantizeQ8(values))
    }
    return data
  }
}

extension WhisperModelConverter {
  /// ggml's q8_0 blocks: 32 values as one f16 scale and 32 signed bytes (value = scale * byte).
  fileprivate static func quantizeQ8(_ values: [Float]) -> Data {
    precondition(values.count % 32 == 0, "q8_0 needs rows that are a multiple of 32")
    var data = Data(capacity: values.count / 32 * 34)
    var block = [UInt8](repeating: 0, count: 34)
    for start in stride(from: 0, to: values.count, by: 32) {
      let chunk = values[start..<(start + 32)]
      let largest = chunk.reduce(0) { max($0, abs($1)) }
      let scale = largest / 127
      let inverse: Float = scale == 0 ? 0 : 1 / scale
      withUnsafeBytes(of: Float16(scale).bitPattern.littleEndian) {
        block[0] = $0[0]
        block[1] = $0[1]
      }
      for (offset, value) in chunk.enumerated() {
        block[2 + offset] = UInt8(bitPattern: Int8(max(-127, min(127, (value * inverse).rounded()))))
      }
      data.append(contentsOf: block)
    }
    return data
  }
}

extension Data {
  mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }
}
