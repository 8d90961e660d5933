//! Process and thread resource measurements for `fcauto bench` and `batch run` (Linux
//! `getrusage(2)`, `clock_gettime(2)`).

/// CPU time (user + system) and peak resident set size of this process or of its waited-for
/// children.
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    /// User + system CPU time, seconds.
    pub cpu_s: f64,
    /// Peak resident set size, MiB (`ru_maxrss`, for children the largest single child).
    pub max_rss_mib: f64,
}

fn read(who: libc::c_int) -> Usage {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(who, &mut ru) };
    if rc != 0 {
        return Usage::default();
    }
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    Usage {
        cpu_s: t(ru.ru_utime) + t(ru.ru_stime),
        max_rss_mib: ru.ru_maxrss as f64 / 1024.0,
    }
}

/// This process (all threads).
pub fn this_process() -> Usage {
    read(libc::RUSAGE_SELF)
}

/// Children that have been waited for.
pub fn children() -> Usage {
    read(libc::RUSAGE_CHILDREN)
}

/// CPU time (user + system) of the calling thread, milliseconds (Linux
/// `CLOCK_THREAD_CPUTIME_ID`); 0 if the clock cannot be read.
pub fn thread_cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the struct we pass.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6
}
