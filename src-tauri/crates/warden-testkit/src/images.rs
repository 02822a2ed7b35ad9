//! Pictures for tests: a decompression bomb — a PNG a few hundred KB long whose header claims
//! any size, and whose data really decodes to that many pixels — written by hand, so making one
//! costs milliseconds and no memory (an encoder would first need the gigabyte of pixels).

/// A valid `width`×`height` black PNG (1 bit per pixel, greyscale): each row is a filter byte and
/// `width / 8` zero bytes, all compressed as one literal and then back-references of 258 bytes,
/// 13 bits each. A 20,000×20,000 one is about 320 KB; decoded to 8 bits a pixel it is 400 MB.
pub fn bomb_png(width: u32, height: u32) -> Vec<u8> {
    let row = 1 + u64::from(width).div_ceil(8);
    let raw = row * u64::from(height);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    // Bit depth 1, greyscale, deflate, no filter method, not interlaced.
    header.extend_from_slice(&[1, 0, 0, 0, 0]);
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &zlib_of_zeros(raw));
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = png.len();
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let crc = crc32(&png[start..]);
    png.extend_from_slice(&crc.to_be_bytes());
}

/// A zlib stream of `count` zero bytes: one deflate block with the fixed Huffman codes.
fn zlib_of_zeros(count: u64) -> Vec<u8> {
    let mut bits = Bits::default();
    // Last block, fixed codes.
    bits.value(1, 1);
    bits.value(1, 2);
    let mut left = count;
    if left > 0 {
        // Literal 0: code 0x30, 8 bits.
        bits.code(0x30, 8);
        left -= 1;
    }
    while left >= 258 {
        // Length 258 (symbol 285: code 0b1100_0101, 8 bits), distance 1 (code 0, 5 bits).
        bits.code(0b1100_0101, 8);
        bits.code(0, 5);
        left -= 258;
    }
    for _ in 0..left {
        bits.code(0x30, 8);
    }
    // End of block: symbol 256, code 0, 7 bits.
    bits.code(0, 7);
    let mut out = vec![0x78, 0x01];
    out.extend(bits.finish());
    // Adler-32 of `count` zeros: a stays 1, b adds a once a byte.
    let adler = ((count % 65_521) << 16) | 1;
    out.extend_from_slice(&(adler as u32).to_be_bytes());
    out
}

/// Deflate's bit order: values from their least significant bit, Huffman codes from their most.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    current: u8,
    used: u8,
}

impl Bits {
    fn bit(&mut self, bit: u32) {
        self.current |= ((bit & 1) as u8) << self.used;
        self.used += 1;
        if self.used == 8 {
            self.out.push(self.current);
            self.current = 0;
            self.used = 0;
        }
    }

    fn value(&mut self, value: u32, width: u32) {
        for i in 0..width {
            self.bit(value >> i);
        }
    }

    fn code(&mut self, code: u32, width: u32) {
        for i in (0..width).rev() {
            self.bit(code >> i);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.out.push(self.current);
        }
        self.out
    }
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}
