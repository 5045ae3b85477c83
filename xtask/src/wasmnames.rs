//! The function names a wasm module carries in its `name` section, as
//! cargo writes it (wasm-opt drops the section): what `cargo xtask build`
//! reads to prove a module links none of the code it must not have.

/// The names of the functions in `wasm`'s name section (empty without
/// one).
///
/// # Errors
/// When `wasm` is not a wasm module or a section runs past its end.
pub fn function_names(wasm: &[u8]) -> Result<Vec<String>, String> {
    if wasm.get(..8) != Some(&[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00][..]) {
        return Err("not a wasm module (version 1)".into());
    }
    for (id, body) in sections(&wasm[8..], "a section runs past the end of the module")? {
        if id == 0 {
            let mut at = 0;
            if name(body, &mut at)? == "name" {
                return names_in(&body[at..]);
            }
        }
    }
    Ok(Vec::new())
}

/// The function names subsection (id 1) of a name section's body.
fn names_in(body: &[u8]) -> Result<Vec<String>, String> {
    for (id, sub) in sections(body, "a name subsection runs past its section")? {
        if id == 1 {
            let mut at = 0;
            let count = leb(sub, &mut at)?;
            let mut names = Vec::with_capacity(count.min(1 << 16));
            for _ in 0..count {
                leb(sub, &mut at)?;
                names.push(name(sub, &mut at)?);
            }
            return Ok(names);
        }
    }
    Ok(Vec::new())
}

/// The `(id, body)` of each section in `bytes`, laid out as wasm lays out
/// both its sections and the name section's subsections: an id byte, a
/// LEB128 length, the body. `overrun` says what went wrong when a length
/// runs past the end.
fn sections<'a>(bytes: &'a [u8], overrun: &str) -> Result<Vec<(u8, &'a [u8])>, String> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let id = bytes[at];
        at += 1;
        let len = leb(bytes, &mut at)?;
        let end = at.checked_add(len).filter(|&e| e <= bytes.len());
        let end = end.ok_or(overrun)?;
        found.push((id, &bytes[at..end]));
        at = end;
    }
    Ok(found)
}

/// An unsigned LEB128 number at `at`, which moves past it.
fn leb(bytes: &[u8], at: &mut usize) -> Result<usize, String> {
    let mut value = 0usize;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(*at).ok_or("a number runs past the end")?;
        *at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("a number longer than 32 bits".into())
}

/// A length-prefixed UTF-8 name at `at`, which moves past it.
fn name(bytes: &[u8], at: &mut usize) -> Result<String, String> {
    let len = leb(bytes, at)?;
    let end = at.checked_add(len).filter(|&e| e <= bytes.len());
    let end = end.ok_or("a name runs past the end")?;
    let text = String::from_utf8_lossy(&bytes[*at..end]).into_owned();
    *at = end;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with a custom `name` section naming functions 0 and 1.
    fn module(names: &[&str]) -> Vec<u8> {
        let mut sub = vec![names.len() as u8];
        for (i, n) in names.iter().enumerate() {
            sub.push(i as u8);
            sub.push(n.len() as u8);
            sub.extend_from_slice(n.as_bytes());
        }
        let mut body = vec![4];
        body.extend_from_slice(b"name");
        body.push(1);
        body.push(sub.len() as u8);
        body.extend(sub);
        let mut wasm = vec![0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
        // An empty type section before it, which is skipped.
        wasm.extend([1, 1, 0]);
        wasm.push(0);
        wasm.push(body.len() as u8);
        wasm.extend(body);
        wasm
    }

    #[test]
    fn reads_the_function_names() {
        let wasm = module(&["main", "_ZN9uttt_core6search6engine"]);
        assert_eq!(
            function_names(&wasm).unwrap(),
            ["main", "_ZN9uttt_core6search6engine"]
        );
        assert_eq!(function_names(&wasm[..11]).unwrap(), Vec::<String>::new());
        assert!(function_names(&wasm[..20]).is_err());
        assert!(function_names(b"not wasm").is_err());
    }
}
