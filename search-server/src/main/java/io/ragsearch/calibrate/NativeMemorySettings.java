package io.ragsearch.calibrate;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells glibc's allocator to give large blocks back to the system, so that the working memory
 * of an ONNX run (with the ORT arena off) is returned when the run ends and the next burst
 * starts from the same baseline. Equivalent to MALLOC_ARENA_MAX=2 and MALLOC_MMAP_THRESHOLD_=131072
 * in the environment, applied from inside the process so it holds however the server is started.
 *
 * <p>Why these two: a fixed mmap threshold serves every block of 128 KiB or more with its own
 * mapping, unmapped on free (glibc's default threshold climbs to 32 MiB after frees and then
 * keeps such blocks in its heaps); two arenas stop each tool thread from growing a heap of its own.
 */
public final class NativeMemorySettings {

    private static final Logger LOG = LoggerFactory.getLogger(NativeMemorySettings.class);
    private static final int M_MMAP_THRESHOLD = -3;
    private static final int M_ARENA_MAX = -8;
    static final int ARENA_MAX = 2;
    static final int MMAP_THRESHOLD = 128 * 1024;

    private static Map<String, Object> applied;

    private NativeMemorySettings() {
    }

    interface CLibrary extends Library {
        int mallopt(int param, int value);
    }

    /** Applies the settings once; returns what is in force, for /calibration and /info. */
    public static synchronized Map<String, Object> apply() {
        if (applied != null) {
            return applied;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        try {
            CLibrary c = Native.load("c", CLibrary.class);
            boolean arena = c.mallopt(M_ARENA_MAX, ARENA_MAX) == 1;
            boolean mmap = c.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1;
            result.put("mallocArenaMax", arena ? ARENA_MAX : "unchanged");
            result.put("mallocMmapThreshold", mmap ? MMAP_THRESHOLD : "unchanged");
            result.put("appliedBy", "mallopt");
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            // Not glibc (or no libc to load): the environment variables are the remaining lever.
            LOG.warn("cannot tune the C allocator ({}); set MALLOC_ARENA_MAX=2 and MALLOC_MMAP_THRESHOLD_=131072", e.getMessage());
            result.put("appliedBy", "none");
        }
        applied = Map.copyOf(result);
        return applied;
    }
}
