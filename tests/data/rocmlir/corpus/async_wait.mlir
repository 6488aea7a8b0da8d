// RUN: rocmlir-opt %s --rock-to-rocdl
func.func @async_wait() {
  // The waitcnt stores all counters in one i32 bits 15:14 and 3:0 store the vmcnt we have to wait on
  // CHECK: rocdl.s.waitcnt -49168
  // CHECK: rocdl.s.waitcnt -7937
  // CHECK: rocdl.s.barrier
  rock.async_wait {num_inst = 0 : i32}
  // CHECK: rocdl.s.waitcnt -49167
  // CHECK: rocdl.s.waitcnt -7937
  // CHECK: rocdl.s.barrier
  rock.async_wait {num_inst = 1 : i32}
  // CHECK: rocdl.s.waitcnt -2
  // CHECK: rocdl.s.waitcnt -7937
  // CHECK: rocdl.s.barrier
  rock.async_wait {num_inst = 62 : i32}
  // CHECK: rocdl.s.waitcnt -1
  // CHECK: rocdl.s.waitcnt -7937
  // CHECK: rocdl.s.barrier
  rock.async_wait {num_inst = 63 : i32}
  // Check that we clamp values > 63
  // CHECK: rocdl.s.waitcnt -1
  // CHECK: rocdl.s.waitcnt -7937
  // CHECK: rocdl.s.barrier
  rock.async_wait {num_inst = 64 : i32}
  return  
}