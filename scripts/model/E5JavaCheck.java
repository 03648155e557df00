import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Loads the converted multilingual-e5-small the way the server does (ONNX Runtime Java, DJL's
 * HuggingFace tokenizer with the server's options) and reports load time, resident memory,
 * the tokens of a regulation title, a few similarities, and single-thread throughput. Run with
 * the jars a Maven build leaves in ~/.m2 (see docs/models.md):
 *   java -cp "$CP" scripts/model/E5JavaCheck.java ~/.cache/ragsearch/models/multilingual-e5-small
 */
public final class E5JavaCheck {

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : System.getProperty("user.home") + "/.cache/ragsearch/models/multilingual-e5-small");
        long rss0 = rssKiB();
        HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(
                new ByteArrayInputStream(Files.readAllBytes(dir.resolve("tokenizer.json"))),
                Map.of("truncation", "true", "padding", "false", "maxLength", "512", "modelMaxLength", "512"));
        long rss1 = rssKiB();
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setIntraOpNumThreads(1);
        long start = System.nanoTime();
        OrtSession session = env.createSession(dir.resolve("model.onnx").toString(), options);
        double load = (System.nanoTime() - start) / 1e9;
        long rss2 = rssKiB();
        System.out.printf("session load %.2f s; resident memory +%d MiB for the session, +%d MiB for the tokenizer%n",
                load, (rss2 - rss1) / 1024, (rss1 - rss0) / 1024);

        Encoding title = tokenizer.encode("국가공무원 복무규정 제18조");
        System.out.println("tokens: " + String.join(" ", title.getTokens()));

        String[] texts = {
            "query: 연가는 최대 며칠까지 받을 수 있나",
            "passage: 공무원은 재직 기간에 따라 연가를 최대 21일까지 받을 수 있다.",
            "passage: 출장을 마친 후 5일 이내에 결과 보고서를 제출하여야 한다.",
            "passage: An employee must request annual leave at least three days in advance.",
        };
        float[][] vectors = embed(env, session, tokenizer, texts);
        for (int i = 1; i < texts.length; i++) {
            System.out.printf("cos(query, %s) = %.4f%n", texts[i], dot(vectors[0], vectors[i]));
        }

        String clause = "제%d조(복무) 공무원은 법령에 따라 성실히 직무를 수행하여야 하며, 소속 기관의 장은 "
                + "근무 시간과 휴가, 출장 및 당직에 관한 사항을 정하여 공고한다. ";
        String[] batch = new String[16];
        for (int n = 0; n < batch.length; n++) {
            batch[n] = "passage: " + String.format(clause, n).repeat(8);
        }
        HuggingFaceTokenizer capped = HuggingFaceTokenizer.newInstance(
                new ByteArrayInputStream(Files.readAllBytes(dir.resolve("tokenizer.json"))),
                Map.of("truncation", "true", "padding", "false", "maxLength", "300", "modelMaxLength", "300"));
        embed(env, session, capped, batch); // warm-up
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        start = System.nanoTime();
        long cpu0 = cpuNanos();
        for (int r = 0; r < rounds; r++) {
            embed(env, session, capped, batch);
        }
        double wall = (System.nanoTime() - start) / 1e9;
        double cpu = (cpuNanos() - cpu0) / 1e9;
        System.out.printf("throughput, 1 thread, batch 16 x %d tokens: %.2f passages/s, %.2f per CPU second; "
                + "resident memory now +%d MiB over the start%n", capped.encode(batch[0]).getIds().length,
                16.0 * rounds / wall, 16.0 * rounds / cpu, (rssKiB() - rss0) / 1024);
    }

    static float[][] embed(OrtEnvironment env, OrtSession session, HuggingFaceTokenizer tokenizer, String[] texts)
            throws Exception {
        List<long[]> ids = new ArrayList<>();
        int length = 0;
        for (String text : texts) {
            long[] row = tokenizer.encode(text).getIds();
            ids.add(row);
            length = Math.max(length, row.length);
        }
        long[][] input = new long[texts.length][length];
        long[][] mask = new long[texts.length][length];
        for (int r = 0; r < texts.length; r++) {
            Arrays.fill(input[r], 1L);
            long[] row = ids.get(r);
            System.arraycopy(row, 0, input[r], 0, row.length);
            Arrays.fill(mask[r], 0, row.length, 1L);
        }
        try (OnnxTensor a = OnnxTensor.createTensor(env, input);
             OnnxTensor b = OnnxTensor.createTensor(env, mask);
             OrtSession.Result result = session.run(Map.of("input_ids", a, "attention_mask", b))) {
            float[][][] hidden = (float[][][]) result.get(0).getValue();
            float[][] out = new float[texts.length][];
            for (int r = 0; r < texts.length; r++) {
                float[] sum = new float[hidden[r][0].length];
                int n = ids.get(r).length;
                for (int t = 0; t < n; t++) {
                    for (int k = 0; k < sum.length; k++) {
                        sum[k] += hidden[r][t][k];
                    }
                }
                double norm = Math.sqrt(dot(sum, sum));
                for (int k = 0; k < sum.length; k++) {
                    sum[k] /= (float) norm;
                }
                out[r] = sum;
            }
            return out;
        }
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static long rssKiB() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
