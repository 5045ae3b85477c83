//! Writing to standard output without panicking when the reader goes away.
//!
//! `println!` panics when stdout is a closed pipe (`uttt perft 7 | head`).
//! A closed pipe means nobody wants the rest, so the program ends quietly
//! with success, as `head` users expect; any other write failure is
//! reported in one line with exit code 1.

use std::fmt;
use std::io::{self, Write};

/// Writes `args` to stdout, ending the process if that is impossible.
pub fn emit(args: fmt::Arguments<'_>) {
    let mut stdout = io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        failed(&e);
    }
}

/// Ends the process after a failed write to stdout.
fn failed(e: &io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("uttt: cannot write to standard output: {e}");
    std::process::exit(1);
}

/// `print!` that ends the process quietly when stdout is a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::emit(format_args!($($arg)*))
    };
}

/// `println!` that ends the process quietly when stdout is a closed pipe.
macro_rules! outln {
    () => {
        $crate::out::emit(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::emit(format_args!("{}\n", format_args!($($arg)*)))
    };
}
