extension MicrophoneCapture {
  /// How a device stores each sample; the encodings capture can read, most preferred first.
  ///
  /// Capture asks the device for the first of these it accepts, reads interleaved frames in that
  /// encoding and turns them into `Float` samples before converting them to the output format.
  /// The raw values are ALSA's format names.
  public enum SampleFormat: String, CaseIterable, Sendable {
    /// 32-bit float, little-endian: no conversion loss.
    case float32 = "FLOAT_LE"
    /// 32-bit signed integer, little-endian.
    case int32 = "S32_LE"
    /// 24-bit signed integer in the low three bytes of a 32-bit word, little-endian.
    case int24 = "S24_LE"
    /// 24-bit signed integer packed in three bytes, little-endian (many USB microphones).
    case packedInt24 = "S24_3LE"
    /// 16-bit signed integer, little-endian: what most sound cards record.
    case int16 = "S16_LE"
    /// 8-bit unsigned integer, centred on 128.
    case unsignedInt8 = "U8"

    /// Bytes one sample occupies in a frame.
    public var bytesPerSample: Int {
      switch self {
      case .float32, .int32, .int24: 4
      case .packedInt24: 3
      case .int16: 2
      case .unsignedInt8: 1
      }
    }

    /// Appends the samples in `bytes` (whole samples in this encoding) to `output`, scaled to
    /// -1...1.
    func appendSamples(from bytes: UnsafeRawBufferPointer, to output: inout [Float]) {
      let width = bytesPerSample
      let count = bytes.count / width
      output.reserveCapacity(output.count + count)
      switch self {
      case .float32:
        for index in 0..<count {
          let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * width, as: UInt32.self))
          output.append(Float(bitPattern: bits))
        }
      case .int32:
        for index in 0..<count {
          let value = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * width, as: Int32.self))
          output.append(Float(value) / 2_147_483_648)
        }
      case .int24:
        for index in 0..<count {
          // Only the low 24 bits carry the sample; the top byte may hold anything.
          let word = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * width, as: Int32.self))
          output.append(Float((word << 8) >> 8) / 8_388_608)
        }
      case .packedInt24:
        for index in 0..<count {
          let offset = index * width
          let word = Int32(bytes[offset]) | Int32(bytes[offset + 1]) << 8 | Int32(bytes[offset + 2]) << 16
          output.append(Float((word << 8) >> 8) / 8_388_608)
        }
      case .int16:
        for index in 0..<count {
          let value = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: index * width, as: Int16.self))
          output.append(Float(value) / 32_768)
        }
      case .unsignedInt8:
        for index in 0..<count {
          output.append((Float(bytes[index]) - 128) / 128)
        }
      }
    }
  }
}
