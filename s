perf report: light_work 8.90 %, medium_work 30.87 %, heavy_work 60.23 % (want 10, 30, 60 within 1 point1)
